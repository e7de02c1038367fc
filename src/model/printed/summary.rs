//! Keras `model.summary()` tables, parsed into rows.
//!
//! Two styles: Keras 3's box-drawing table (`┃ Layer (type) ┃ Output Shape ┃ Param # ┃`, rows
//! between `├───┤` rules, cells split by `│`, long cells wrapped onto more lines at spaces and
//! cut with `…`), and Keras 2's text table (`Layer (type)  Output Shape  Param #  Connected to`
//! between `====` rules, rows apart by blank or `____` lines, cells at the header's columns,
//! long cells wrapped at the column width, or in older versions cut there: `(MaxPooling2`).
//! Each row keeps its cells as printed; [`super::derive`] reads their meaning.

use super::{error, lines};
use crate::model::code::ReadError;

/// The most rows a summary may hold.
pub const MAX_ROWS: usize = 20_000;

/// One layer's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The 1-based line of the row's first line.
    pub line: usize,
    pub name: String,
    /// The type as printed; `truncated` when the table cut it (`Batch` for
    /// `BatchNormalization`).
    pub class: String,
    pub truncated: bool,
    /// The output shape cell (`(None, 30, 30, 32)`, `[(None, 32, 32, 3)]`).
    pub shape: String,
    /// The parameter count cell (`18,496`, `0 (unused)`).
    pub params: String,
    /// The inbound layers (`Connected to`): name, node index, tensor index; a name the table
    /// cut (`global_average_pooling2d[…`) is a prefix, marked.
    pub inbound: Vec<Inbound>,
    /// The row's first line as printed (trimmed), for the table's source column.
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inbound {
    pub name: String,
    pub node: usize,
    pub tensor: usize,
    /// The table cut the name: `name` is a prefix.
    pub cut: bool,
}

/// A parsed summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// `Model: "name"`, when printed.
    pub title: Option<String>,
    /// The header's line.
    pub line: usize,
    pub rows: Vec<Row>,
    /// Whether the table has a `Connected to` column (a functional model's).
    pub connected: bool,
    /// `Total params: N`, when printed.
    pub total: Option<i64>,
    /// Keras 3's box-drawing table, or Keras 2's text table.
    pub boxed: bool,
}

/// Whether a trimmed line is a table rule (`____`, `====`, `━━━`, `───` and their corners).
pub(crate) fn is_rule(t: &str) -> bool {
    !t.is_empty()
        && t.chars().all(|c| {
            matches!(
                c,
                '_' | '='
                    | '-'
                    | '━'
                    | '─'
                    | '┏'
                    | '┓'
                    | '┳'
                    | '┡'
                    | '┩'
                    | '╇'
                    | '├'
                    | '┤'
                    | '┼'
                    | '└'
                    | '┘'
                    | '┴'
                    | '┌'
                    | '┐'
                    | '┬'
            )
        })
}

/// The integer at the start of a cell, thousands separators allowed (`3,965,056`, `896`).
pub fn count(cell: &str) -> Option<i64> {
    let digits: String = cell
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(|c| *c != ',')
        .collect();
    digits.parse().ok()
}

/// Splits `name (Type)` (the type maybe cut: `name (Batch`).
fn name_and_type(cell: &str) -> Option<(String, String, bool)> {
    let cell = cell.trim();
    let (name, rest) = cell.split_once(" (")?;
    let name = name.trim();
    // Keras names: letters, digits and a few separators (a name is written into Python).
    let fine = |c: char| c.is_alphanumeric() || matches!(c, '_' | '.' | '-' | '/' | ':');
    if name.is_empty() || !name.chars().all(fine) {
        return None;
    }
    let rest = rest.trim();
    let (class, truncated) = match rest.strip_suffix(')') {
        Some(c) => (c.trim(), false),
        None => (rest.trim_end_matches('…'), true),
    };
    Some((name.to_string(), class.to_string(), truncated))
}

/// The `Connected to` cell's inbound layers.
fn inbound(cell: &str) -> Vec<Inbound> {
    let mut out = Vec::new();
    for piece in cell.replace(['\'', '"'], "").split(',') {
        let p = piece.trim().trim_start_matches('[').trim();
        if p.is_empty() || p == "-" || p == "]" {
            continue;
        }
        let end = p
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '.' | '/' | '-')))
            .unwrap_or(p.len());
        let name = &p[..end];
        if name.is_empty() {
            continue;
        }
        let rest = &p[end..];
        let cut = rest.contains('…');
        let mut idx = rest
            .split(['[', ']'])
            .filter(|s| !s.is_empty())
            .map(|s| s.trim().parse::<usize>());
        let node = idx.next().and_then(Result::ok).unwrap_or(0);
        let tensor = idx.next().and_then(Result::ok).unwrap_or(0);
        out.push(Inbound {
            name: name.to_string(),
            node,
            tensor,
            cut,
        });
    }
    out
}

/// A row being gathered: its first line and its cells' pieces, one list per column.
struct Pending {
    line: usize,
    text: String,
    cells: Vec<Vec<String>>,
}

impl Pending {
    /// A row opened on line `line`, with `columns` empty cells.
    fn open(line: usize, text: String, columns: usize) -> Pending {
        Pending {
            line,
            text,
            cells: vec![Vec::new(); columns],
        }
    }

    /// A table line's cells added to the row's, column by column (an empty cell adds nothing;
    /// a cell wrapped over lines is rejoined without spaces: Keras 2 cuts at the width).
    fn add_cells(&mut self, cells: &[impl AsRef<str>]) {
        for (i, c) in cells.iter().enumerate() {
            let c = c.as_ref().trim();
            if let Some(v) = self.cells.get_mut(i)
                && !c.is_empty()
            {
                v.push(c.to_string());
            }
        }
    }
}

/// Parses the summary that starts on line `start` of `text`.
pub fn parse(text: &str, start: usize) -> Result<Table, ReadError> {
    let mut title = None;
    let mut header: Option<(usize, &str)> = None;
    let mut body: Vec<(usize, &str)> = Vec::new();
    let mut total = None;
    let mut last_line = start;
    for (n, _, l) in lines(text).skip(start.saturating_sub(1)) {
        let t = l.trim();
        last_line = n;
        if header.is_none() {
            if let Some(name) = t.strip_prefix("Model:") {
                title = Some(name.trim().trim_matches(['"', '\'']).to_string());
            } else if t.contains("Layer (type)") && t.contains("Output Shape") {
                header = Some((n, l));
            }
            continue;
        }
        if let Some(rest) = t.strip_prefix("Total params:") {
            total = count(rest);
            break;
        }
        if body.len() >= MAX_ROWS.saturating_mul(4) {
            return Err(error(
                n,
                format!("the summary holds more than {MAX_ROWS} rows: padlab stops there"),
            ));
        }
        body.push((n, l));
    }
    let Some((hline, htext)) = header else {
        return Err(error(start, "a summary table has a `Layer (type)` header"));
    };
    let boxed = htext.contains('┃');
    // A table that was cut short: its closing rule (or the totals under it) never came.
    let closed = total.is_some()
        || body.iter().any(|(_, l)| {
            let t = l.trim();
            if boxed {
                t.starts_with('└')
            } else {
                t.starts_with("====")
            }
        }) && (boxed
            || body
                .iter()
                .filter(|(_, l)| l.trim().starts_with("===="))
                .count()
                >= 2);
    if !closed {
        return Err(error(
            last_line,
            "the summary ends before its table does (no closing rule nor `Total params`): it was cut short",
        ));
    }
    let (columns, rows) = if boxed {
        boxed_rows(htext, &body)
    } else {
        text_rows(htext, &body)
    };
    let col = |name: &str| columns.iter().position(|c| c.starts_with(name));
    let (Some(c_name), Some(c_shape), Some(c_params)) =
        (col("Layer (type)"), col("Output Shape"), col("Param #"))
    else {
        return Err(error(
            hline,
            "a summary's header names `Layer (type)`, `Output Shape` and `Param #`",
        ));
    };
    let c_conn = col("Connected to");
    let mut out = Vec::new();
    for p in rows {
        if out.len() >= MAX_ROWS {
            return Err(error(
                p.line,
                format!("the summary holds more than {MAX_ROWS} rows: padlab stops there"),
            ));
        }
        // Keras 3 wraps at spaces (pieces joined by one); Keras 2 cuts at the column's width.
        let join = |c: usize, sep: &str| -> String {
            p.cells
                .get(c)
                .map(|v| v.iter().map(|s| s.trim()).collect::<Vec<_>>().join(sep))
                .unwrap_or_default()
        };
        // A text row whose cells are not where the header's titles are (a reflowed paste):
        // its first line read by its content instead.
        let shape_like = |c: &str| {
            let c = c.trim();
            (c.starts_with('(') || c.starts_with('[')) && (c.ends_with(')') || c.ends_with(']'))
        };
        let p = if !boxed
            && (!shape_like(&join(c_shape, "")) || count(&join(c_params, "")).is_none())
        {
            free_form(&p, c_name, c_shape, c_params, c_conn).unwrap_or(p)
        } else {
            p
        };
        let join = |c: usize, sep: &str| -> String {
            p.cells
                .get(c)
                .map(|v| v.iter().map(|s| s.trim()).collect::<Vec<_>>().join(sep))
                .unwrap_or_default()
        };
        let name_cell = join(c_name, if boxed { " " } else { "" });
        // Rich folds a word longer than its column without a space: try the pieces glued.
        let parsed = name_and_type(&name_cell).or_else(|| name_and_type(&join(c_name, "")));
        let Some((name, class, truncated)) = parsed else {
            return Err(error(
                p.line,
                format!(
                    "cannot read `{}` as a summary row's `name (Type)`",
                    crate::model::code::eval::short(&name_cell)
                ),
            ));
        };
        out.push(Row {
            line: p.line,
            name,
            class,
            truncated,
            shape: join(c_shape, ""),
            params: join(c_params, ""),
            inbound: c_conn
                .map(|c| inbound(&join(c, if boxed { " " } else { "" })))
                .unwrap_or_default(),
            text: p.text,
        });
    }
    if out.is_empty() {
        return Err(error(hline, "the summary has no rows"));
    }
    Ok(Table {
        title,
        line: hline,
        rows: out,
        connected: c_conn.is_some(),
        total,
        boxed,
    })
}

/// A text row read by its content: `name (Type)`, then the shape (from the first `(None` or
/// `[(`), the parameter count, and the rest as `Connected to`.
fn free_form(
    p: &Pending,
    c_name: usize,
    c_shape: usize,
    c_params: usize,
    c_conn: Option<usize>,
) -> Option<Pending> {
    let t = p.text.as_str();
    let start = [
        t.find("[(None"),
        t.find("(None"),
        t.find("[("),
        t.find(" (("),
    ]
    .into_iter()
    .flatten()
    .min()?;
    let (head, rest) = t.split_at(start);
    let rest = rest.trim_start();
    let close = if rest.starts_with('[') { ']' } else { ')' };
    let mut depth = 0i32;
    let mut end = None;
    for (i, c) in rest.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth == 0 && c == close {
                    end = Some(i + 1);
                    break;
                }
            }
            _ => {}
        }
    }
    let end = end?;
    let (shape, tail) = rest.split_at(end);
    let tail = tail.trim_start();
    let digits = tail
        .find(|c: char| !(c.is_ascii_digit() || c == ','))
        .unwrap_or(tail.len());
    let (params, conn) = tail.split_at(digits);
    let width = [c_name, c_shape, c_params, c_conn.unwrap_or(0)]
        .into_iter()
        .max()
        .unwrap_or(0)
        + 1;
    let mut cells = vec![Vec::new(); width.max(p.cells.len())];
    cells[c_name].push(head.trim().to_string());
    cells[c_shape].push(shape.to_string());
    cells[c_params].push(params.to_string());
    if let Some(c) = c_conn {
        cells[c].push(conn.trim().to_string());
        // More inbound layers on the lines below.
        if let Some(more) = p.cells.get(c) {
            cells[c].extend(more.iter().skip(1).cloned());
        }
    }
    Some(Pending {
        line: p.line,
        text: p.text.clone(),
        cells,
    })
}

/// Keras 3's box table: the header's `┃` cells name the columns; rows are `│` lines between
/// rules.
fn boxed_rows(header: &str, body: &[(usize, &str)]) -> (Vec<String>, Vec<Pending>) {
    let columns: Vec<String> = header
        .trim()
        .trim_matches('┃')
        .split('┃')
        .map(|c| c.trim().to_string())
        .collect();
    let mut rows: Vec<Pending> = Vec::new();
    let mut open = false;
    for &(n, l) in body {
        let t = l.trim();
        if !t.starts_with('│') {
            open = false;
            continue;
        }
        let cells: Vec<&str> = t.trim_matches('│').split('│').collect();
        if !open {
            let text = cells
                .iter()
                .map(|c| c.trim())
                .filter(|c| !c.is_empty())
                .collect::<Vec<_>>()
                .join("  ");
            rows.push(Pending::open(n, text, columns.len()));
            open = true;
        }
        if let Some(p) = rows.last_mut() {
            p.add_cells(&cells);
        }
    }
    (columns, rows)
}

/// Keras 2's text table: columns start where the header's titles start; rows are separated by
/// blank or `____` lines, and end at a `====` rule.
fn text_rows(header: &str, body: &[(usize, &str)]) -> (Vec<String>, Vec<Pending>) {
    let hchars: Vec<char> = header.chars().collect();
    // Column starts: each title's first character (titles are separated by 2+ spaces).
    let mut starts: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < hchars.len() {
        if hchars[i] != ' '
            && (i == 0
                || (i >= 2 && hchars[i - 1] == ' ' && hchars[i - 2] == ' ')
                || starts.is_empty())
        {
            starts.push(i);
        }
        i += 1;
    }
    let columns: Vec<String> = starts
        .iter()
        .enumerate()
        .map(|(k, &s)| {
            let e = starts.get(k + 1).copied().unwrap_or(hchars.len());
            hchars[s..e].iter().collect::<String>().trim().to_string()
        })
        .collect();
    // A row's first column starts at the line's start (its indent), not at the title.
    let mut bounds: Vec<usize> = starts.clone();
    if let Some(b) = bounds.first_mut() {
        *b = 0;
    }
    let mut rows: Vec<Pending> = Vec::new();
    let mut open = false;
    let mut seen_rule = false;
    for &(n, l) in body {
        let t = l.trim();
        if t.is_empty() || (is_rule(t) && t.starts_with('_')) {
            open = false;
            continue;
        }
        if is_rule(t) {
            if seen_rule && !rows.is_empty() {
                break;
            }
            seen_rule = true;
            open = false;
            continue;
        }
        let chars: Vec<char> = l.chars().collect();
        let cells: Vec<String> = bounds
            .iter()
            .enumerate()
            .map(|(k, &s)| {
                let e = bounds
                    .get(k + 1)
                    .copied()
                    .unwrap_or(chars.len())
                    .min(chars.len());
                let s = s.min(e);
                chars[s..e].iter().collect::<String>()
            })
            .collect();
        // A continuation line leaves the first column empty (old Keras 2 lists more inbound
        // layers this way; newer versions wrap long cells).
        // A line whose first cell starts `name (` opens a row even without a rule above it.
        let opens = cells.first().is_some_and(|c| c.trim().contains(" ("));
        if !open || opens {
            let text = t.split_whitespace().collect::<Vec<_>>().join(" ");
            rows.push(Pending::open(n, text, columns.len()));
            open = true;
        }
        if let Some(p) = rows.last_mut() {
            p.add_cells(&cells);
        }
    }
    (columns, rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connected_cells_in_both_styles() {
        let k3 = inbound("conv2d_3[0][0], max_pooling2d[0][0]");
        assert_eq!(k3.len(), 2);
        assert_eq!(k3[1].name, "max_pooling2d");
        let cut = inbound("global_average_pooling2d[…");
        assert_eq!(cut[0].name, "global_average_pooling2d");
        assert!(cut[0].cut);
        let cut = inbound("batch_normalization_…");
        assert_eq!(cut[0].name, "batch_normalization_");
        assert!(cut[0].cut);
        let k2 = inbound("['conv2d_5[0][0]','add[0][0]']");
        assert_eq!(
            k2.iter().map(|i| i.name.as_str()).collect::<Vec<_>>(),
            ["conv2d_5", "add"]
        );
        assert!(!k2[0].cut);
        assert!(inbound("[]").is_empty());
        assert!(inbound("-").is_empty());
    }

    #[test]
    fn name_and_type_cut_or_whole() {
        assert_eq!(
            name_and_type("max_pooling2d (MaxPooling2D)"),
            Some(("max_pooling2d".into(), "MaxPooling2D".into(), false))
        );
        assert_eq!(
            name_and_type("batch_normalization_1 (Batch"),
            Some(("batch_normalization_1".into(), "Batch".into(), true))
        );
        assert_eq!(count("3,965,056"), Some(3_965_056));
        assert_eq!(count("0 (unused)"), Some(0));
    }
}
