//! weft facade.
