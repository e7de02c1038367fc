//! Printed models: what people paste when they have no code at hand — the printout of a torch
//! module (`print(model)`, read by [`torch`]) and a Keras `model.summary()` table (parsed by
//! [`summary`], made a graph by [`derive`]). Each is read into the same [`Model`] as pasted
//! code, through the same layer vocabulary and shape rules.
//!
//! *What a printout lacks is said, never guessed*: torch does not print `forward`, so a module
//! other than a `Sequential` runs the forward padlab knows for its class and children
//! ([`forward`]), else its children in the printed order, and its rows say which;
//! a summary shows no kernel sizes, strides, padding nor activations, so padlab derives what
//! its numbers decide, states each assumption on its row, and a port refuses with the first
//! fact that is missing.
//!
//! *Bounded*: the readers are linear in the paste (a nesting depth, a module count and a row
//! count are capped, each an error naming the line); no input panics.

pub mod derive;
pub mod forward;
pub mod summary;
pub mod torch;

use super::Model;
use super::code::{Options, ReadError};

/// The kinds of printed model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `print(model)` of a torch module: `Name(` then `  (child): Class(args)` lines.
    Printout,
    /// Keras `model.summary()`: a `Layer (type)` header over box-drawing or `====`/`____` rules.
    Summary,
}

/// A printed model found in a paste.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub kind: Kind,
    /// The 1-based line where it starts (for a summary, its `Model: "..."` title or first rule).
    pub line: usize,
    /// The byte offset of that line.
    pub offset: usize,
}

/// The paste's lines: (1-based number, byte offset, text without its line ending).
pub(crate) fn lines(text: &str) -> impl Iterator<Item = (usize, usize, &str)> {
    let mut offset = 0;
    text.split('\n').enumerate().map(move |(i, l)| {
        let at = offset;
        offset += l.len() + 1;
        (i + 1, at, l.strip_suffix('\r').unwrap_or(l))
    })
}

pub(crate) fn error(line: usize, message: impl Into<String>) -> ReadError {
    ReadError {
        line,
        message: message.into(),
    }
}

/// Whether `s` is a Python identifier (ASCII, as class names are printed).
pub(crate) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The first printed model in `text`, if any: a torch printout's root line (`Name(` followed
/// by a `(child): ` line) or a Keras summary's header (`Layer (type)` and `Output Shape`).
pub fn find(text: &str) -> Option<Found> {
    // The last few lines seen, for a summary's title and rules above its header.
    let mut recent: Vec<(usize, usize, &str)> = Vec::with_capacity(4);
    // A `Name(` line, and how many of a module's `extra_repr` lines may still come before
    // its first child.
    let mut pending_root: Option<(usize, usize, usize)> = None;
    for (n, at, l) in lines(text) {
        let t = l.trim();
        if let Some((root_line, root_at, extra)) = pending_root
            && !t.is_empty()
        {
            if torch::child_line(t) {
                return Some(Found {
                    kind: Kind::Printout,
                    line: root_line,
                    offset: root_at,
                });
            }
            pending_root = (extra > 0 && !t.ends_with('(') && t != ")")
                .then(|| (root_line, root_at, extra - 1));
            if pending_root.is_some() {
                continue;
            }
        }
        if pending_root.is_none()
            && let Some(name) = t.strip_suffix('(')
            && is_identifier(name)
        {
            pending_root = Some((n, at, 4));
            continue;
        }
        if t.contains("Layer (type)") && t.contains("Output Shape") {
            // Start at the title (`Model: "name"`) or the rule just above the header.
            let mut start = (n, at);
            for &(m, a, above) in recent.iter().rev() {
                let u = above.trim();
                if u.starts_with("Model:") || summary::is_rule(u) {
                    start = (m, a);
                } else if !u.is_empty() {
                    break;
                }
            }
            return Some(Found {
                kind: Kind::Summary,
                line: start.0,
                offset: start.1,
            });
        }
        if recent.len() == 3 {
            recent.remove(0);
        }
        recent.push((n, at, l));
    }
    None
}

/// Reads the printed model `found` in `text`.
pub fn read(text: &str, found: Found, options: &Options) -> Result<Model, ReadError> {
    match found.kind {
        Kind::Printout => torch::read(text, found.line, options),
        Kind::Summary => {
            let table = summary::parse(text, found.line)?;
            derive::read(&table, options)
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod detect_tests {
    use super::*;

    #[test]
    fn finds_a_printout_and_a_summary_by_their_shape() {
        let p = "# a comment\nResNet(\n  (conv1): Conv2d(3, 64, kernel_size=(7, 7))\n)\n";
        assert_eq!(
            find(p),
            Some(Found {
                kind: Kind::Printout,
                line: 2,
                offset: 12
            })
        );
        let s =
            "x = 1\nModel: \"sequential\"\n______\n Layer (type)   Output Shape   Param #\n=====\n";
        let f = find(s).unwrap();
        assert_eq!((f.kind, f.line), (Kind::Summary, 2));
        // A call that opens a line but is code, not a printout.
        assert_eq!(find("model = Sequential(\n    Conv2d(3, 4, 3),\n)\n"), None);
        assert_eq!(find("foo(\n  x\n)"), None);
    }
}
