//! Which positions of an axis are drawn. A large axis keeps what tells the padding story —
//! the start (the padding before, the first window and the next one), the end (from the last
//! window's start: the padding after, the odd pixel, dead cells, what ceil mode reaches) and
//! the current window — and elides the middle into a one-slot gap the picture labels
//! ("… 212 rows …"). Drawing is bounded by the slots, never by the sizes typed.

use super::axis::Axis;

/// The drawn part of one axis: segments of positions `[from, to)`, in order, disjoint, with one
/// gap slot between neighbours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strip {
    segments: Vec<(i64, i64)>,
    len: i64,
}

/// What a drawn slot shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    At(i64),
    /// Positions `from..to`, elided.
    Gap {
        from: i64,
        to: i64,
    },
}

impl Strip {
    /// Every position of an axis of `len`.
    pub fn whole(len: i64) -> Strip {
        Strip {
            segments: if len > 0 { vec![(0, len)] } else { vec![] },
            len: len.max(0),
        }
    }

    /// The positions of `wanted` (any order, overlapping, out of range), clipped to `0..len`
    /// and merged; a gap that would hide fewer than two positions is drawn instead.
    pub fn of(len: i64, wanted: &[(i64, i64)]) -> Strip {
        let mut parts: Vec<(i64, i64)> = wanted
            .iter()
            .map(|&(a, b)| (a.clamp(0, len), b.clamp(0, len)))
            .filter(|(a, b)| a < b)
            .collect();
        parts.sort_unstable();
        let mut segments: Vec<(i64, i64)> = Vec::with_capacity(parts.len());
        for (a, b) in parts {
            match segments.last_mut() {
                Some(last) if a <= last.1.saturating_add(2) => last.1 = last.1.max(b),
                _ => segments.push((a, b)),
            }
        }
        Strip {
            segments,
            len: len.max(0),
        }
    }

    /// The segments drawn, in order.
    pub fn segments(&self) -> &[(i64, i64)] {
        &self.segments
    }

    /// The axis's number of positions.
    pub fn len(&self) -> i64 {
        self.len
    }

    /// Whether the axis has no positions.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether every position is drawn.
    pub fn is_whole(&self) -> bool {
        self.segments.as_slice() == [(0, self.len)] || self.len == 0
    }

    /// Drawn slots: the positions shown and one per gap (a gap before the first segment or
    /// after the last counts too).
    pub fn slots(&self) -> i64 {
        let shown: i64 = self.segments.iter().map(|(a, b)| b - a).sum();
        shown + self.gaps().count() as i64
    }

    /// The elided ranges `(slot, from, to)`, in order.
    pub fn gaps(&self) -> impl Iterator<Item = (i64, i64, i64)> + '_ {
        let mut slot = 0;
        let mut next = 0;
        let mut out = Vec::new();
        for &(a, b) in &self.segments {
            if a > next {
                out.push((slot, next, a));
                slot += 1;
            }
            slot += b - a;
            next = b;
        }
        if next < self.len && !self.segments.is_empty() {
            out.push((slot, next, self.len));
        }
        out.into_iter()
    }

    /// The slot that draws position `p`, if it is drawn.
    pub fn slot(&self, p: i64) -> Option<i64> {
        let mut slot = 0;
        let mut next = 0;
        for &(a, b) in &self.segments {
            if a > next {
                slot += 1;
            }
            if (a..b).contains(&p) {
                return Some(slot + (p - a));
            }
            slot += b - a;
            next = b;
        }
        None
    }

    /// What slot `s` shows.
    pub fn at(&self, s: i64) -> Option<Slot> {
        let mut slot = 0;
        let mut next = 0;
        for &(a, b) in &self.segments {
            if a > next {
                if s == slot {
                    return Some(Slot::Gap { from: next, to: a });
                }
                slot += 1;
            }
            if s >= slot && s < slot + (b - a) {
                return Some(Slot::At(a + (s - slot)));
            }
            slot += b - a;
            next = b;
        }
        (next < self.len && s == slot && !self.segments.is_empty()).then_some(Slot::Gap {
            from: next,
            to: self.len,
        })
    }

    /// The drawn positions, with their slots, in order.
    pub fn positions(&self) -> impl Iterator<Item = (i64, i64)> + '_ {
        let mut slot = 0;
        let mut next = 0;
        self.segments.iter().flat_map(move |&(a, b)| {
            if a > next {
                slot += 1;
            }
            let first = slot;
            slot += b - a;
            next = b;
            (a..b).map(move |p| (first + (p - a), p))
        })
    }
}

/// Splits `budget` slots between a start, a focus and an end segment of an axis of `len`
/// positions: the start and end take what they `need` up to a third each, the focus the
/// rest. The focus sits around `at`, moved in half-width jumps so that stepping through the
/// middle redraws the picture only now and then.
fn three_parts(len: i64, budget: i64, need: (i64, i64), at: (i64, i64)) -> Strip {
    if len <= budget.max(1) {
        return Strip::whole(len);
    }
    // Two slots for the gaps; each part at least one position.
    let avail = (budget - 2).max(3);
    let head = need.0.clamp(1, avail / 3);
    let tail = need.1.clamp(1, avail / 3);
    let focus = (avail - head - tail).max(1);
    let (from, to) = at;
    let mut parts = vec![(0, head), (len - tail, len)];
    let inside = |a: i64, b: i64| (a >= 0 && b <= head) || (a >= len - tail && b <= len);
    if !inside(from, to.min(from.saturating_add(focus))) {
        let jump = (focus / 2).max(1);
        let start = (from - focus / 4).div_euclid(jump) * jump;
        let start = start.clamp(head, (len - tail - focus).max(head));
        parts.push((start, start.saturating_add(focus)));
    } else {
        // No focus needed: the start and the end share its slots.
        let more = focus / 2;
        parts[0].1 = head + more;
        parts[1].0 = len - tail - (focus - more);
    }
    Strip::of(len, &parts)
}

/// The input positions of `axis` to draw in `budget` slots, with output `focus`'s window.
pub fn input_strip(axis: &Axis, focus: i64, budget: i64) -> Strip {
    let len = axis.len();
    let span = axis.span();
    // The start: the padding before, the first window, where the next one starts.
    let head = axis
        .before
        .saturating_add(span)
        .saturating_add(axis.stride.min(span));
    // The end: from the last window's start.
    let last = axis.start(axis.output.saturating_sub(1).max(0));
    let tail = len.saturating_sub(last.min(len));
    let from = axis.start(focus);
    three_parts(len, budget, (head, tail), (from, from.saturating_add(span)))
}

/// The outputs of `axis` to draw in `budget` slots: the first, the last, and `focus`.
pub fn output_strip(axis: &Axis, focus: i64, budget: i64) -> Strip {
    let quarter = (budget / 4).max(1);
    three_parts(axis.output, budget, (quarter, quarter), (focus, focus + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_map_to_positions_and_gaps_and_back() {
        let s = Strip::of(100, &[(0, 5), (40, 44), (96, 100)]);
        // 5 + gap + 4 + gap + 4.
        assert_eq!(s.slots(), 15);
        assert_eq!(s.slot(3), Some(3));
        assert_eq!(s.slot(40), Some(6));
        assert_eq!(s.slot(99), Some(14));
        assert_eq!(s.slot(20), None);
        assert_eq!(s.at(5), Some(Slot::Gap { from: 5, to: 40 }));
        assert_eq!(s.at(6), Some(Slot::At(40)));
        assert_eq!(s.at(15), None);
        assert_eq!(s.gaps().collect::<Vec<_>>(), vec![(5, 5, 40), (10, 44, 96)]);
        for (slot, p) in s.positions() {
            assert_eq!(s.slot(p), Some(slot));
            assert_eq!(s.at(slot), Some(Slot::At(p)));
        }
        // A gap of one position is drawn instead of elided; the end may be a gap too.
        assert_eq!(Strip::of(10, &[(0, 3), (4, 6)]).segments(), &[(0, 6)]);
        let open = Strip::of(10, &[(0, 3)]);
        assert_eq!(open.slots(), 4);
        assert_eq!(open.at(3), Some(Slot::Gap { from: 3, to: 10 }));
        assert!(Strip::whole(7).is_whole() && !open.is_whole());
    }

    #[test]
    fn a_large_axis_keeps_its_edges_and_the_current_window() {
        // ResNet stem: 224 with pads (2, 3), kernel 7, stride 2 -> 112.
        let axis = Axis {
            input: 224,
            before: 2,
            after: 3,
            beyond: 0,
            kernel: 7,
            stride: 2,
            dilation: 1,
            output: 112,
            inserted_every: 1,
            crop: (0, 0),
        };
        let s = input_strip(&axis, 0, 40);
        assert!(s.slots() <= 40, "{s:?}");
        // Both paddings and the whole first and last windows are drawn.
        assert!(s.slot(0).is_some() && s.slot(10).is_some());
        assert!((222..229).all(|p| s.slot(p).is_some()), "{s:?}");
        // Stepping into the middle brings the window into view.
        let mid = input_strip(&axis, 50, 40);
        assert!((100..107).all(|p| mid.slot(p).is_some()), "{mid:?}");
        assert!(mid.slots() <= 40);
        // The focus moves in jumps: the next step keeps the same strip.
        assert_eq!(input_strip(&axis, 51, 40), mid);
        let out = output_strip(&axis, 50, 20);
        assert!(out.slot(0).is_some() && out.slot(111).is_some() && out.slot(50).is_some());
        assert!(out.slots() <= 20);
        // Small axes are whole.
        assert!(input_strip(&axis, 0, 400).is_whole());
    }
}
