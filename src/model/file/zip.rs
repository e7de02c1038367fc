//! The few entries padlab reads from a zip archive (a Keras 3 `.keras` file): the central
//! directory, then one entry's bytes, stored or deflated (miniz_oxide, pure Rust), at most a
//! given size, checked against its CRC-32.
//!
//! Every offset and length is checked against the archive before use; the central directory is
//! walked at most [`MAX_ENTRIES`] entries; inflating stops at the caller's limit, so a zip bomb
//! costs at most that much memory and the time to inflate it.

use super::{FileError, Format};

/// Entries walked in a central directory.
pub const MAX_ENTRIES: usize = 100_000;

/// One entry of the central directory.
#[derive(Clone, Debug)]
pub struct Entry<'a> {
    pub name: &'a [u8],
    method: u16,
    crc: u32,
    compressed: u64,
    size: u64,
    local: u64,
}

/// An archive, read in place.
pub struct Archive<'a> {
    bytes: &'a [u8],
    pub entries: Vec<Entry<'a>>,
}

fn corrupt(what: impl Into<String>) -> FileError {
    Format::Keras.corrupt(what)
}

fn truncated(what: impl Into<String>) -> FileError {
    Format::Keras.truncated(what)
}

fn at(b: &[u8], off: u64, len: usize) -> Option<&[u8]> {
    let off = usize::try_from(off).ok()?;
    b.get(off..off.checked_add(len)?)
}

fn u16_at(b: &[u8], off: u64) -> Option<u16> {
    at(b, off, 2).map(|s| {
        u16::from_le_bytes([
            s.first().copied().unwrap_or(0),
            s.get(1).copied().unwrap_or(0),
        ])
    })
}

fn u32_at(b: &[u8], off: u64) -> Option<u32> {
    at(b, off, 4)
        .and_then(|s| s.try_into().ok())
        .map(u32::from_le_bytes)
}

fn u64_at(b: &[u8], off: u64) -> Option<u64> {
    at(b, off, 8)
        .and_then(|s| s.try_into().ok())
        .map(u64::from_le_bytes)
}

impl<'a> Archive<'a> {
    pub fn new(bytes: &'a [u8]) -> Result<Archive<'a>, FileError> {
        // The end-of-central-directory record: 22 bytes and a comment of up to 65535.
        let len = bytes.len();
        let lowest = len.saturating_sub(22 + 0xffff);
        let eocd = (lowest..=len.saturating_sub(22))
            .rev()
            .find(|&i| bytes.get(i..i + 4) == Some(b"PK\x05\x06"))
            .ok_or_else(|| {
                truncated(
                    "the zip's central directory is missing (the end of the archive is cut off)",
                )
            })? as u64;
        let field = |off: u64| u16_at(bytes, eocd.saturating_add(off)).map(u64::from);
        let field32 = |off: u64| u32_at(bytes, eocd.saturating_add(off)).map(u64::from);
        let (mut count, mut size, mut offset) = (
            field(10).ok_or_else(|| truncated("zip end record"))?,
            field32(12).ok_or_else(|| truncated("zip end record"))?,
            field32(16).ok_or_else(|| truncated("zip end record"))?,
        );
        if count == 0xffff || offset == 0xffff_ffff || size == 0xffff_ffff {
            // Zip64: the locator sits just before the end record.
            let locator = eocd
                .checked_sub(20)
                .filter(|&l| at(bytes, l, 4) == Some(b"PK\x06\x07"))
                .ok_or_else(|| corrupt("a zip64 archive without its zip64 locator"))?;
            let record = u64_at(bytes, locator.saturating_add(8))
                .ok_or_else(|| truncated("zip64 locator"))?;
            if at(bytes, record, 4) != Some(b"PK\x06\x06") {
                return Err(corrupt(
                    "the zip64 end record is not where its locator says",
                ));
            }
            count = u64_at(bytes, record.saturating_add(32))
                .ok_or_else(|| truncated("zip64 end record"))?;
            size = u64_at(bytes, record.saturating_add(40))
                .ok_or_else(|| truncated("zip64 end record"))?;
            offset = u64_at(bytes, record.saturating_add(48))
                .ok_or_else(|| truncated("zip64 end record"))?;
        }
        if offset.checked_add(size).is_none_or(|end| end > len as u64) {
            return Err(truncated(
                "the zip's central directory lies past the end of the file",
            ));
        }
        if count > MAX_ENTRIES as u64 {
            return Err(FileError::TooLarge {
                format: Format::Keras,
                what: "entries in the zip",
                limit: MAX_ENTRIES,
            });
        }
        let mut entries = Vec::new();
        let mut pos = offset;
        for _ in 0..count {
            if at(bytes, pos, 4) != Some(b"PK\x01\x02") {
                return Err(corrupt("a central directory entry without its signature"));
            }
            let h = |off: u64| u16_at(bytes, pos.saturating_add(off)).map(u64::from);
            let w = |off: u64| u32_at(bytes, pos.saturating_add(off));
            let bad = || truncated("a central directory entry");
            let method = h(10).ok_or_else(bad)? as u16;
            let crc = w(16).ok_or_else(bad)?;
            let mut compressed = u64::from(w(20).ok_or_else(bad)?);
            let mut size = u64::from(w(24).ok_or_else(bad)?);
            let name_len = h(28).ok_or_else(bad)?;
            let extra_len = h(30).ok_or_else(bad)?;
            let comment_len = h(32).ok_or_else(bad)?;
            let mut local = u64::from(w(42).ok_or_else(bad)?);
            let name = at(bytes, pos.saturating_add(46), name_len as usize).ok_or_else(bad)?;
            let extra =
                at(bytes, pos.saturating_add(46 + name_len), extra_len as usize).ok_or_else(bad)?;
            // The zip64 extra field holds the sizes and offset that are 0xffffffff above.
            let mut e = 0usize;
            while let (Some(id), Some(n)) = (
                u16_at(extra, e as u64),
                u16_at(extra, (e as u64).saturating_add(2)),
            ) {
                let body = at(extra, (e as u64).saturating_add(4), n as usize).unwrap_or_default();
                if id == 1 {
                    let mut k = 0u64;
                    for v in [&mut size, &mut compressed, &mut local] {
                        if *v == 0xffff_ffff {
                            *v = u64_at(body, k)
                                .ok_or_else(|| corrupt("a short zip64 extra field"))?;
                            k += 8;
                        }
                    }
                }
                e = e.saturating_add(4 + n as usize);
            }
            entries.push(Entry {
                name,
                method,
                crc,
                compressed,
                size,
                local,
            });
            pos = pos
                .checked_add(46 + name_len + extra_len + comment_len)
                .ok_or_else(bad)?;
        }
        Ok(Archive { bytes, entries })
    }

    pub fn find(&self, name: &str) -> Option<&Entry<'a>> {
        self.entries.iter().find(|e| e.name == name.as_bytes())
    }

    /// An entry's contents, at most `limit` bytes once inflated.
    pub fn read(&self, e: &Entry<'a>, limit: usize) -> Result<Vec<u8>, FileError> {
        let shown = String::from_utf8_lossy(e.name).into_owned();
        if e.size > limit as u64 {
            return Err(FileError::TooLarge {
                format: Format::Keras,
                what: "bytes in the model configuration",
                limit,
            });
        }
        if at(self.bytes, e.local, 4) != Some(b"PK\x03\x04") {
            return Err(corrupt(format!(
                "{shown}: no local header where the directory says"
            )));
        }
        let n = u16_at(self.bytes, e.local.saturating_add(26)).map(u64::from);
        let x = u16_at(self.bytes, e.local.saturating_add(28)).map(u64::from);
        let (Some(n), Some(x)) = (n, x) else {
            return Err(truncated(format!("{shown}'s local header")));
        };
        let start = e.local.saturating_add(30 + n + x);
        let data = usize::try_from(e.compressed)
            .ok()
            .and_then(|c| at(self.bytes, start, c))
            .ok_or_else(|| truncated(format!("{shown} is cut short")))?;
        let out = match e.method {
            0 => data.to_vec(),
            8 => {
                miniz_oxide::inflate::decompress_to_vec_with_limit(data, limit).map_err(|err| {
                    match err.status {
                        miniz_oxide::inflate::TINFLStatus::HasMoreOutput => FileError::TooLarge {
                            format: Format::Keras,
                            what: "bytes in the model configuration",
                            limit,
                        },
                        _ => corrupt(format!("{shown} does not inflate: {:?}", err.status)),
                    }
                })?
            }
            m => {
                return Err(FileError::Unsupported {
                    format: Format::Keras,
                    what: format!(
                        "{shown} is compressed with zip method {m} (only stored and deflate are read)"
                    ),
                });
            }
        };
        if out.len() as u64 != e.size || crc32(&out) != e.crc {
            return Err(corrupt(format!("{shown} does not match its checksum")));
        }
        Ok(out)
    }
}

/// CRC-32 (IEEE), as zip stores it.
fn crc32(b: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, t) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *t = c;
    }
    let mut crc = !0u32;
    for &x in b {
        crc = table[((crc ^ u32::from(x)) & 0xff) as usize] ^ (crc >> 8);
    }
    !crc
}

#[cfg(test)]
mod tests {
    #[test]
    fn crc_of_a_known_string() {
        assert_eq!(super::crc32(b"123456789"), 0xcbf4_3926);
    }
}
