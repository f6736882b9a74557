//! The cartridge's playfield page: 200 visible cells and the 56 bytes after them.
//!
//! The piece logic addresses the page with 8-bit arithmetic, so rows -1 and -2 land in
//! the last 20 bytes ($04EC-$04FF) and row 20 in $04C8-$04D1. Keeping the whole page
//! makes cells locked above the field and the row-0 shift behave as on the cartridge.

use crate::tables::TILE_EMPTY;

/// Page 4 of the console's RAM: `playfield[row * 10 + col]` for rows 0..20, then the rest.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Playfield(pub [u8; 256]);

impl Playfield {
    /// Index of the first byte of the row above the field (row -2, $04EC).
    pub const ABOVE_FIELD: usize = 0xEC;

    /// A page filled with empty tiles, as game init leaves it.
    pub const fn empty() -> Playfield {
        Playfield([TILE_EMPTY; 256])
    }

    /// The tile at a visible cell (row 0..20, column 0..10).
    #[inline]
    pub fn cell(&self, row: usize, col: usize) -> u8 {
        self.0[row * 10 + col]
    }

    /// True if the visible cell holds anything but the empty tile.
    #[inline]
    pub fn is_filled(&self, row: usize, col: usize) -> bool {
        self.cell(row, col) != TILE_EMPTY
    }

    /// The 200 visible cells, row by row.
    pub fn rows(&self) -> impl Iterator<Item = &[u8]> {
        self.0[..200].chunks_exact(10)
    }

    /// Bytes beyond the visible field that hold something other than the empty tile,
    /// as (page offset, tile): cells locked above the field, row 20, leftovers.
    pub fn off_field(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        self.0[200..]
            .iter()
            .enumerate()
            .filter(|(_, t)| **t != TILE_EMPTY)
            .map(|(i, t)| (200 + i, *t))
    }

    /// `@movePlayfieldDownOneRow`: remove row `row` by copying everything above it down
    /// by ten bytes, then empty row 0. For row 0 the start index wraps to 255, so the
    /// whole page moves down (the last ten bytes fall off into page 5).
    #[inline]
    pub fn shift_down_from(&mut self, row: u8) {
        let n = Self::shifted_len(row);
        // copy_within handles the overlap like the cartridge's top-down loop.
        self.0.copy_within(0..n, 10);
        self.0[..10].fill(TILE_EMPTY);
    }

    /// How many bytes from the page's start [`Playfield::shift_down_from`] moves for `row`.
    #[inline]
    fn shifted_len(row: u8) -> usize {
        let end = (row as usize * 10).wrapping_sub(1) as u8 as usize; // index 255 for row 0
        (end + 1 + 10).min(256) - 10
    }

    /// The ten bytes [`Playfield::shift_down_from`] overwrites for `row` (the removed row;
    /// for row 0, the page's last ten bytes).
    #[inline]
    pub(crate) fn lost_by_shift(&self, row: u8) -> [u8; 10] {
        let n = Self::shifted_len(row);
        let mut lost = [0; 10];
        lost.copy_from_slice(&self.0[n..n + 10]);
        lost
    }

    /// Undoes [`Playfield::shift_down_from`] for `row`, given what it overwrote.
    pub(crate) fn unshift(&mut self, row: u8, lost: &[u8; 10]) {
        let n = Self::shifted_len(row);
        self.0.copy_within(10..n + 10, 0);
        self.0[n..n + 10].copy_from_slice(lost);
    }
}

impl core::fmt::Debug for Playfield {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        writeln!(f, "Playfield [")?;
        for row in self.rows() {
            for t in row {
                let c = match *t {
                    TILE_EMPTY => '.',
                    0x7B => '1',
                    0x7C => '2',
                    0x7D => '3',
                    _ => '#',
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        for (i, t) in self.off_field() {
            write!(f, " ${:04X}={t:02X}", 0x400 + i)?;
        }
        write!(f, "]")
    }
}

impl Default for Playfield {
    fn default() -> Self {
        Playfield::empty()
    }
}

/// A fixed-length byte array as a serde tuple (serde's own arrays stop at 32).
#[cfg(feature = "serde")]
pub(crate) fn serialize_bytes<S: serde::Serializer, const N: usize>(
    bytes: &[u8; N],
    s: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeTuple;
    let mut t = s.serialize_tuple(N)?;
    for b in bytes {
        t.serialize_element(b)?;
    }
    t.end()
}

/// The array [`serialize_bytes`] wrote: exactly `N` bytes.
#[cfg(feature = "serde")]
pub(crate) fn deserialize_bytes<'de, D: serde::Deserializer<'de>, const N: usize>(
    d: D,
) -> Result<[u8; N], D::Error> {
    use serde::de::{Error, SeqAccess, Visitor};
    struct V<const N: usize>;
    impl<'de, const N: usize> Visitor<'de> for V<N> {
        type Value = [u8; N];
        fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
            write!(f, "{N} bytes")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<[u8; N], A::Error> {
            let mut p = [0u8; N];
            for (i, b) in p.iter_mut().enumerate() {
                *b = seq
                    .next_element()?
                    .ok_or_else(|| A::Error::invalid_length(i, &self))?;
            }
            if seq.next_element::<u8>()?.is_some() {
                return Err(A::Error::invalid_length(N + 1, &self));
            }
            Ok(p)
        }
    }
    d.deserialize_tuple(N, V::<N>)
}

#[cfg(feature = "serde")]
impl serde::Serialize for Playfield {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_bytes(&self.0, s)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Playfield {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Playfield, D::Error> {
        deserialize_bytes(d).map(Playfield)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifting_a_middle_row_moves_rows_above_it() {
        let mut p = Playfield::empty();
        p.0[50] = 0x7B; // row 5
        p.0[100] = 0x7C; // row 10, the cleared one
        p.0[0xF6] = 0x7D; // row -1 stays
        p.shift_down_from(10);
        assert_eq!(p.0[60], 0x7B);
        assert_eq!(p.0[100], TILE_EMPTY);
        assert_eq!(p.0[0xF6], 0x7D);
    }

    #[test]
    fn shifting_row_zero_moves_the_whole_page() {
        let mut p = Playfield::empty();
        p.0[0] = 0x7B;
        p.0[190] = 0x7C; // row 19 goes to row 20
        p.0[0xF6] = 0x7D; // row -1 falls off the page
        p.0[0xEC] = 0x7D; // row -2 becomes row -1
        p.shift_down_from(0);
        assert_eq!(p.0[10], 0x7B);
        assert_eq!(p.0[0], TILE_EMPTY);
        assert_eq!(p.0[200], 0x7C);
        assert_eq!(p.0[0xF6], 0x7D);
        assert_eq!(p.0[0xEC], TILE_EMPTY);
    }
}
