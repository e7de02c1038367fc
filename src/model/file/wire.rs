//! The protobuf wire format, read in place: a field iterator over a borrowed buffer.
//!
//! Nothing is copied and nothing is allocated here: a length-delimited field is a sub-slice of
//! the input, so a 100 MB weight stays where it is. Every length is checked against the bytes
//! that remain before it is used, varints are at most ten bytes, and the deprecated group wire
//! types are refused: any input ends in a field, the end, or a [`WireError`].

use std::fmt;

/// A malformed protobuf buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireError {
    /// The buffer ends inside a field.
    Truncated,
    /// A varint longer than ten bytes.
    Varint,
    /// A field number 0, or a wire type this reader does not know (groups, 6, 7).
    Key(u64),
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::Truncated => f.write_str("the data ends inside a field"),
            WireError::Varint => f.write_str("a number runs past ten bytes"),
            WireError::Key(k) => write!(
                f,
                "field key {k} (field {}, wire type {}) is not a valid field",
                k >> 3,
                k & 7
            ),
        }
    }
}

/// One field's value, as the wire type carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    Varint(u64),
    Fixed64(u64),
    Bytes(&'a [u8]),
    Fixed32(u32),
}

impl<'a> Value<'a> {
    pub fn bytes(self) -> Option<&'a [u8]> {
        match self {
            Value::Bytes(b) => Some(b),
            _ => None,
        }
    }

    pub fn float(self) -> Option<f32> {
        match self {
            Value::Fixed32(v) => Some(f32::from_bits(v)),
            _ => None,
        }
    }
}

/// The fields of one message, in order.
pub struct Fields<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Fields<'a> {
    pub fn new(buf: &'a [u8]) -> Self {
        Fields { buf, pos: 0 }
    }

    /// The next field number and value, `None` at the end.
    pub fn next_field(&mut self) -> Result<Option<(u32, Value<'a>)>, WireError> {
        if self.pos >= self.buf.len() {
            return Ok(None);
        }
        let key = self.varint()?;
        let field = key >> 3;
        if field == 0 || field > u64::from(u32::MAX >> 3) {
            return Err(WireError::Key(key));
        }
        let value = match key & 7 {
            0 => Value::Varint(self.varint()?),
            1 => Value::Fixed64(u64::from_le_bytes(self.array::<8>()?)),
            2 => {
                let len = self.varint()?;
                let rest = self.buf.len().saturating_sub(self.pos);
                let len = usize::try_from(len)
                    .ok()
                    .filter(|&l| l <= rest)
                    .ok_or(WireError::Truncated)?;
                let end = self.pos + len;
                let b = self.buf.get(self.pos..end).ok_or(WireError::Truncated)?;
                self.pos = end;
                Value::Bytes(b)
            }
            5 => Value::Fixed32(u32::from_le_bytes(self.array::<4>()?)),
            _ => return Err(WireError::Key(key)),
        };
        Ok(Some((field as u32, value)))
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], WireError> {
        let end = self.pos.checked_add(N).ok_or(WireError::Truncated)?;
        let b = self.buf.get(self.pos..end).ok_or(WireError::Truncated)?;
        self.pos = end;
        let mut out = [0u8; N];
        out.copy_from_slice(b);
        Ok(out)
    }

    fn varint(&mut self) -> Result<u64, WireError> {
        let (v, used) = varint(self.buf.get(self.pos..).unwrap_or_default())?;
        self.pos += used;
        Ok(v)
    }
}

/// A varint at the start of `b`, and how many bytes it took.
pub fn varint(b: &[u8]) -> Result<(u64, usize), WireError> {
    let mut v: u64 = 0;
    for (i, &byte) in b.iter().enumerate().take(10) {
        v |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return Ok((v, i + 1));
        }
    }
    if b.len() < 10 {
        Err(WireError::Truncated)
    } else {
        Err(WireError::Varint)
    }
}

/// Counts a packed run of varints (for a size check before it is decoded).
pub fn count_varints(b: &[u8]) -> usize {
    b.iter().filter(|&&x| x & 0x80 == 0).count()
}

/// Decodes a packed run of varints, at most `limit` of them.
pub fn packed_varints(b: &[u8], limit: usize) -> Result<Vec<i64>, WireError> {
    let mut out = Vec::with_capacity(count_varints(b).min(limit));
    let mut pos = 0;
    while pos < b.len() && out.len() < limit {
        let (v, used) = varint(b.get(pos..).unwrap_or_default())?;
        out.push(v as i64);
        pos += used;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_refusals() {
        // field 1 varint 150, field 2 bytes "ab", field 3 fixed32.
        let b = [
            0x08, 0x96, 0x01, 0x12, 0x02, b'a', b'b', 0x1d, 0, 0, 0x80, 0x3f,
        ];
        let mut f = Fields::new(&b);
        assert_eq!(f.next_field(), Ok(Some((1, Value::Varint(150)))));
        assert_eq!(f.next_field(), Ok(Some((2, Value::Bytes(b"ab")))));
        assert_eq!(
            f.next_field().map(|x| x.and_then(|(_, v)| v.float())),
            Ok(Some(1.0))
        );
        assert_eq!(f.next_field(), Ok(None));
        // A length past the end, a group, field 0, an endless varint.
        assert_eq!(
            Fields::new(&[0x12, 0xff, 0xff, 0xff, 0xff, 0x0f]).next_field(),
            Err(WireError::Truncated)
        );
        assert!(Fields::new(&[0x0b]).next_field().is_err());
        assert!(Fields::new(&[0x00, 0x00]).next_field().is_err());
        assert_eq!(
            Fields::new(&[
                0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1
            ])
            .next_field(),
            Err(WireError::Varint)
        );
        assert_eq!(packed_varints(&[1, 0x96, 0x01, 3], 10), Ok(vec![1, 150, 3]));
    }
}
