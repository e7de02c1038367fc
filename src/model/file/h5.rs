//! A legacy Keras `.h5` file: the root group's `model_config` attribute (the model's JSON),
//! and its `keras_version` and `backend`, read from the HDF5 structures that lead there and
//! nothing else.
//!
//! A minimal reader of the HDF5 file format (The HDF Group, "HDF5 File Format Specification
//! Version 3.0"): the superblock (versions 0 to 3), the root group's object header (versions 1
//! and 2, with continuation blocks), its attribute messages (versions 1 to 3), and their value
//! when it is a string: fixed-length, or variable-length in a global heap collection (how h5py
//! writes `bytes` and `str`). Attributes in dense storage (a fractal heap, for objects with
//! very many attributes) are refused by name; Keras's root group holds four.
//!
//! Checksums are not verified (a bit flip the structures survive reaches the JSON parser);
//! every address and length is checked against the file, continuation chains and message
//! counts are capped, so any input is read in time linear in its size, and the only allocation
//! is the attribute's value (at most [`limits::CONFIG_BYTES`]).

use super::keras::{KerasModel, parse_config};
use super::{FileError, Format, limits};

/// Object header continuation blocks followed.
const MAX_BLOCKS: usize = 64;
/// Header messages read from one object.
const MAX_MESSAGES: usize = 65_536;

const MSG_DATATYPE_NIL: u16 = 0;
const MSG_ATTRIBUTE: u16 = 0x000c;
const MSG_CONTINUATION: u16 = 0x0010;
const MSG_ATTRIBUTE_INFO: u16 = 0x0015;

/// Reads a legacy Keras `.h5` file's model configuration.
pub fn read_h5(bytes: &[u8]) -> Result<KerasModel, FileError> {
    let file = H5::open(bytes)?;
    let root = file.root()?;
    let attrs = file.attributes(root)?;
    let find = |name: &str| attrs.iter().find(|a| a.name == name.as_bytes());
    let Some(config) = find("model_config") else {
        if file.has_dense_attributes(root)? {
            return Err(FileError::Unsupported {
                format: Format::Hdf5,
                what: "the root group keeps its attributes in dense storage (a fractal heap)"
                    .into(),
            });
        }
        return Err(FileError::NoModelConfig);
    };
    let json = file.string(config, limits::CONFIG_BYTES)?;
    let text = |a: Option<&Attr<'_>>| {
        a.and_then(|a| file.string(a, 4096).ok())
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    };
    let model = parse_config(&json, Format::Hdf5)?;
    Ok(KerasModel {
        format: Format::Hdf5,
        keras_version: text(find("keras_version")),
        backend: text(find("backend")),
        model,
    })
}

fn corrupt(what: impl Into<String>) -> FileError {
    Format::Hdf5.corrupt(what)
}

fn truncated(what: impl Into<String>) -> FileError {
    Format::Hdf5.truncated(what)
}

fn unsupported(what: impl Into<String>) -> FileError {
    FileError::Unsupported {
        format: Format::Hdf5,
        what: what.into(),
    }
}

/// One attribute: its name and the raw parts of its message.
struct Attr<'a> {
    name: &'a [u8],
    datatype: &'a [u8],
    dataspace: &'a [u8],
    data: &'a [u8],
}

struct H5<'a> {
    b: &'a [u8],
    /// Size of offsets and of lengths, in bytes.
    o: usize,
    l: usize,
    base: u64,
    root: u64,
}

/// A little-endian unsigned integer of `n` bytes at `off` of `b`.
fn uint(b: &[u8], off: usize, n: usize) -> Option<u64> {
    let s = b.get(off..off.checked_add(n)?)?;
    if n > 8 {
        return None;
    }
    Some(
        s.iter()
            .rev()
            .fold(0u64, |acc, &x| (acc << 8) | u64::from(x)),
    )
}

fn pad8(n: usize) -> Option<usize> {
    n.checked_add(7).map(|x| x & !7)
}

impl<'a> H5<'a> {
    fn open(b: &'a [u8]) -> Result<H5<'a>, FileError> {
        if !b.starts_with(b"\x89HDF\r\n\x1a\n") {
            return Err(corrupt("no HDF5 signature"));
        }
        let version = *b.get(8).ok_or_else(|| truncated("the superblock"))?;
        let short = || truncated("the superblock");
        let size = |at: usize| -> Result<usize, FileError> {
            match b.get(at) {
                Some(&n @ (2 | 4 | 8)) => Ok(usize::from(n)),
                Some(n) => Err(corrupt(format!("offsets or lengths of {n} bytes"))),
                None => Err(short()),
            }
        };
        let (o, l, base, eof, root) = match version {
            0 | 1 => {
                let (o, l) = (size(13)?, size(14)?);
                let start = if version == 0 { 24 } else { 28 };
                let base = uint(b, start, o).ok_or_else(short)?;
                // The base, free-space, end-of-file and driver addresses, then the root
                // group's symbol table entry: its link name offset, then its object header
                // address.
                let eof = uint(b, start + 2 * o, o).ok_or_else(short)?;
                let entry = start + 4 * o;
                let root = uint(b, entry + o, o).ok_or_else(short)?;
                (o, l, base, eof, root)
            }
            2 | 3 => {
                let (o, l) = (size(9)?, size(10)?);
                let base = uint(b, 12, o).ok_or_else(short)?;
                let eof = uint(b, 12 + 2 * o, o).ok_or_else(short)?;
                let root = uint(b, 12 + 3 * o, o).ok_or_else(short)?;
                (o, l, base, eof, root)
            }
            v => return Err(unsupported(format!("superblock version {v}"))),
        };
        // The superblock states where the file ends: a file shorter than that was cut, even
        // where what padlab reads (the configuration, near the start) is whole.
        let undefined = eof == u64::MAX >> (64 - 8 * o as u32);
        let end = base.checked_add(eof);
        if !undefined && end.is_none_or(|end| end > b.len() as u64) {
            return Err(truncated(format!(
                "the file is {} bytes, its superblock says it ends at byte {}",
                b.len(),
                end.map_or_else(|| "beyond 2^64".to_string(), |e| e.to_string())
            )));
        }
        Ok(H5 {
            b,
            o,
            l,
            base,
            root,
        })
    }

    fn root(&self) -> Result<u64, FileError> {
        Ok(self.root)
    }

    /// A file position from an address (relative to the base address).
    fn pos(&self, addr: u64) -> Result<usize, FileError> {
        addr.checked_add(self.base)
            .and_then(|a| usize::try_from(a).ok())
            .filter(|&a| a < self.b.len())
            .ok_or_else(|| truncated(format!("an address ({addr}) past the end of the file")))
    }

    fn slice(&self, at: usize, len: usize) -> Result<&'a [u8], FileError> {
        at.checked_add(len)
            .and_then(|end| self.b.get(at..end))
            .ok_or_else(|| truncated("a structure runs past the end of the file"))
    }

    /// The header messages of the object at `addr`: `(type, data)`.
    fn messages(&self, addr: u64) -> Result<Vec<(u16, &'a [u8])>, FileError> {
        let at = self.pos(addr)?;
        let mut out = Vec::new();
        // Blocks still to read: (position, length, version 1 or 2).
        let mut blocks: Vec<(usize, usize)> = Vec::new();
        let v2 = self.b.get(at..at + 4) == Some(b"OHDR");
        let mut header_flags = 0u8;
        if v2 {
            let flags = *self
                .b
                .get(at + 5)
                .ok_or_else(|| truncated("an object header"))?;
            header_flags = flags;
            let mut p = at + 6;
            if flags & 0x20 != 0 {
                p += 16;
            }
            if flags & 0x10 != 0 {
                p += 4;
            }
            let width = 1usize << (flags & 3);
            let size = uint(self.b, p, width).ok_or_else(|| truncated("an object header"))?;
            let size = usize::try_from(size).map_err(|_| truncated("an object header"))?;
            blocks.push((p + width, size));
        } else {
            match self.b.get(at) {
                Some(1) => {}
                Some(v) => return Err(unsupported(format!("object header version {v}"))),
                None => return Err(truncated("an object header")),
            }
            let size = uint(self.b, at + 8, 4).ok_or_else(|| truncated("an object header"))?;
            blocks.push((at + 16, size as usize));
        }
        let mut followed = 0;
        while let Some((start, len)) = blocks.pop() {
            followed += 1;
            if followed > MAX_BLOCKS {
                return Err(corrupt("an object header continues more than 64 times"));
            }
            let block = self.slice(start, len)?;
            let mut p = 0usize;
            // Version 2 blocks end with a 4-byte checksum; messages need at least 4 bytes.
            let end = if v2 { len.saturating_sub(4) } else { len };
            while p < end {
                let (kind, size, header) = if v2 {
                    // Headers that track creation order give each message two more bytes.
                    let header = if header_flags & 0x04 != 0 { 6 } else { 4 };
                    if end - p < header {
                        break; // the gap before the checksum
                    }
                    let Some(kind) = block.get(p).copied() else {
                        break;
                    };
                    let size =
                        uint(block, p + 1, 2).ok_or_else(|| truncated("a header message"))?;
                    (u16::from(kind), size as usize, header)
                } else {
                    let kind = uint(block, p, 2).ok_or_else(|| truncated("a header message"))?;
                    let size =
                        uint(block, p + 2, 2).ok_or_else(|| truncated("a header message"))?;
                    (kind as u16, size as usize, 8)
                };
                let data_at = p + header;
                let data = block
                    .get(data_at..data_at.saturating_add(size))
                    .ok_or_else(|| truncated("a header message runs past its block"))?;
                if kind == MSG_CONTINUATION {
                    let addr =
                        uint(data, 0, self.o).ok_or_else(|| truncated("a continuation message"))?;
                    let clen = uint(data, self.o, self.l)
                        .ok_or_else(|| truncated("a continuation message"))?;
                    let cpos = self.pos(addr)?;
                    let clen =
                        usize::try_from(clen).map_err(|_| truncated("a continuation block"))?;
                    if v2 {
                        if self.b.get(cpos..cpos + 4) != Some(b"OCHK") {
                            return Err(corrupt("a continuation block without its OCHK signature"));
                        }
                        blocks.push((cpos + 4, clen.saturating_sub(4)));
                    } else {
                        blocks.push((cpos, clen));
                    }
                } else if kind != MSG_DATATYPE_NIL {
                    if out.len() >= MAX_MESSAGES {
                        return Err(corrupt("more than 65,536 messages in one object header"));
                    }
                    out.push((kind, data));
                }
                p = if v2 {
                    data_at + size
                } else {
                    data_at + pad8(size).ok_or_else(|| corrupt("a message size"))?
                };
            }
        }
        Ok(out)
    }

    fn attributes(&self, addr: u64) -> Result<Vec<Attr<'a>>, FileError> {
        let mut out = Vec::new();
        for (kind, data) in self.messages(addr)? {
            if kind == MSG_ATTRIBUTE {
                out.push(self.attribute(data)?);
            }
        }
        Ok(out)
    }

    fn has_dense_attributes(&self, addr: u64) -> Result<bool, FileError> {
        Ok(self.messages(addr)?.iter().any(|(kind, data)| {
            *kind == MSG_ATTRIBUTE_INFO && {
                // Version, flags, [max creation index], fractal heap address.
                let flags = data.get(1).copied().unwrap_or(0);
                let at = if flags & 1 != 0 { 4 } else { 2 };
                uint(data, at, self.o).is_some_and(|a| a != u64::MAX >> (64 - 8 * self.o as u32))
            }
        }))
    }

    fn attribute(&self, m: &'a [u8]) -> Result<Attr<'a>, FileError> {
        let bad = || truncated("an attribute message");
        let version = *m.first().ok_or_else(bad)?;
        let flags = m.get(1).copied().unwrap_or(0);
        let name_len = uint(m, 2, 2).ok_or_else(bad)? as usize;
        let dt_len = uint(m, 4, 2).ok_or_else(bad)? as usize;
        let ds_len = uint(m, 6, 2).ok_or_else(bad)? as usize;
        let (mut p, padded): (usize, bool) = match version {
            1 => (8, true),
            2 => (8, false),
            3 => (9, false),
            v => return Err(unsupported(format!("attribute message version {v}"))),
        };
        if version >= 2 && flags & 3 != 0 {
            return Err(unsupported(
                "an attribute with a shared datatype or dataspace",
            ));
        }
        let step = |n: usize| if padded { pad8(n) } else { Some(n) };
        let mut take = |n: usize| -> Result<&'a [u8], FileError> {
            let s = m
                .get(p..p.checked_add(n).ok_or_else(bad)?)
                .ok_or_else(bad)?;
            p = p.checked_add(step(n).ok_or_else(bad)?).ok_or_else(bad)?;
            Ok(s)
        };
        let name = take(name_len)?;
        let name = name.split(|&c| c == 0).next().unwrap_or_default();
        let datatype = take(dt_len)?;
        let dataspace = take(ds_len)?;
        let data = m.get(p.min(m.len())..).unwrap_or_default();
        Ok(Attr {
            name,
            datatype,
            dataspace,
            data,
        })
    }

    /// The value of a scalar (or one-element) string attribute, at most `limit` bytes.
    fn string(&self, a: &Attr<'a>, limit: usize) -> Result<Vec<u8>, FileError> {
        let shown = String::from_utf8_lossy(a.name).into_owned();
        if self.elements(a.dataspace)? != 1 {
            return Err(unsupported(format!(
                "the {shown} attribute is not a single string"
            )));
        }
        let dt = a.datatype;
        let class = dt
            .first()
            .map(|c| c & 0x0f)
            .ok_or_else(|| truncated("a datatype"))?;
        let size = uint(dt, 4, 4).ok_or_else(|| truncated("a datatype"))? as usize;
        let value = match class {
            // Fixed-length string: `size` bytes, null-terminated or padded.
            3 => {
                let s = a
                    .data
                    .get(..size)
                    .ok_or_else(|| truncated(format!("the {shown} attribute")))?;
                if s.len() > limit {
                    return Err(too_large(limit));
                }
                let end = s.iter().position(|&c| c == 0).unwrap_or(s.len());
                s.get(..end).unwrap_or_default().to_vec()
            }
            // Variable-length: a length, then a global heap ID (collection address, index).
            9 => {
                let len = uint(a.data, 0, 4)
                    .ok_or_else(|| truncated(format!("the {shown} attribute")))?;
                let addr = uint(a.data, 4, self.o)
                    .ok_or_else(|| truncated(format!("the {shown} attribute")))?;
                let index = uint(a.data, 4 + self.o, 4)
                    .ok_or_else(|| truncated(format!("the {shown} attribute")))?;
                let len = usize::try_from(len).map_err(|_| too_large(limit))?;
                if len > limit {
                    return Err(too_large(limit));
                }
                self.heap_object(addr, index, len)?.to_vec()
            }
            c => {
                return Err(unsupported(format!(
                    "the {shown} attribute is of HDF5 type class {c}, not a string"
                )));
            }
        };
        Ok(value)
    }

    /// Elements in a dataspace (1 for a scalar).
    fn elements(&self, ds: &[u8]) -> Result<u64, FileError> {
        let bad = || truncated("a dataspace");
        let version = *ds.first().ok_or_else(bad)?;
        let rank = usize::from(*ds.get(1).ok_or_else(bad)?);
        let (start, scalar) = match version {
            1 => (8, false),
            2 => (4, ds.get(3) == Some(&0)),
            v => return Err(unsupported(format!("dataspace version {v}"))),
        };
        if scalar || rank == 0 {
            return Ok(1);
        }
        let mut n: u64 = 1;
        for i in 0..rank.min(32) {
            let d = uint(ds, start + i * self.l, self.l).ok_or_else(bad)?;
            n = n.saturating_mul(d);
        }
        Ok(n)
    }

    /// Object `index` of the global heap collection at `addr`, which must hold `len` bytes.
    fn heap_object(&self, addr: u64, index: u64, len: usize) -> Result<&'a [u8], FileError> {
        let at = self.pos(addr)?;
        if self.b.get(at..at + 4) != Some(b"GCOL") {
            return Err(corrupt(
                "a string's global heap collection is not where it says",
            ));
        }
        let size =
            uint(self.b, at + 8, self.l).ok_or_else(|| truncated("a global heap collection"))?;
        let size = usize::try_from(size).map_err(|_| truncated("a global heap collection"))?;
        let heap = self.slice(at, size)?;
        let mut p = 8 + self.l;
        // Each object: index (2), references (2), reserved (4), size (L), data padded to 8.
        while p + 8 + self.l <= heap.len() {
            let i = uint(heap, p, 2).unwrap_or(0);
            let n = uint(heap, p + 8, self.l).ok_or_else(|| truncated("a global heap object"))?;
            let n = usize::try_from(n).map_err(|_| truncated("a global heap object"))?;
            let data_at = p + 8 + self.l;
            if i == index {
                if n < len {
                    return Err(corrupt("a string is longer than its heap object"));
                }
                return heap
                    .get(data_at..data_at + len)
                    .ok_or_else(|| truncated("a global heap object"));
            }
            if i == 0 {
                break;
            }
            p = data_at
                .checked_add(pad8(n).ok_or_else(|| truncated("a global heap object"))?)
                .ok_or_else(|| truncated("a global heap object"))?;
        }
        Err(corrupt(format!("global heap object {index} is missing")))
    }
}

fn too_large(limit: usize) -> FileError {
    FileError::TooLarge {
        format: Format::Hdf5,
        what: "bytes in the model configuration",
        limit,
    }
}
