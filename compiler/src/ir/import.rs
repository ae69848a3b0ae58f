//! Imports MLIR text into the IR (todo).
