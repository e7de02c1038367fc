//! Assertions on generated text (code, scripts, messages): a failure names the part that is
//! missing, or there though it should not be, and shows the whole text.
//! `assert_contains!(code, "a", "b")`, `assert_lacks!(code, "c")`; a test file uses one or both.
#![allow(unused_macros)]

/// Asserts that the text (a `String` or `&str`) holds each of the parts after it.
macro_rules! assert_contains {
    ($text:expr, $($part:expr),+ $(,)?) => {{
        let text: &str = &$text;
        $(assert!(text.contains($part), "no {:?} in:\n{text}", $part);)+
    }};
}

/// Asserts that the text (a `String` or `&str`) holds none of the parts after it.
macro_rules! assert_lacks {
    ($text:expr, $($part:expr),+ $(,)?) => {{
        let text: &str = &$text;
        $(assert!(!text.contains($part), "{:?} in:\n{text}", $part);)+
    }};
}
