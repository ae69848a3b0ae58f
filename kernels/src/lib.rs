//! weft kernel library.
