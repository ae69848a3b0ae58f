//! Unit tests: every op of the README contract, round trips, error reporting, contexts.

mod context;
mod errors;
mod kernel;
mod ops;

use super::*;

/// A fresh context (each test gets its own; they are cheap, see `context::timing`).
pub(crate) fn ctx() -> Context {
    context().expect("context")
}

/// `print(parse(text)) == print(parse(print(parse(text))))`, returning the canonical text.
pub(crate) fn round_trip(ctx: &Context, text: &str) -> String {
    let first = print(&parse(ctx, text, "in.mlir").unwrap_or_else(|e| panic!("{e}\n{text}")));
    let second =
        print(&parse(ctx, &first, "printed.mlir").unwrap_or_else(|e| panic!("{e}\n{first}")));
    assert_eq!(first, second, "round trip changed the text");
    first
}
