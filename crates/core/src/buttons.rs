//! The NES joypad byte as the cartridge reads it.

use core::fmt;

/// One frame of controller input: the NES joypad byte.
///
/// Bits as the cartridge stores them: A=$80, B=$40, Select=$20, Start=$10, Up=$08,
/// Down=$04, Left=$02, Right=$01. Opposite directions are not filtered, as on the
/// console.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Buttons(pub u8);

impl Buttons {
    /// No button.
    pub const NONE: Buttons = Buttons(0);
    /// A (rotate clockwise).
    pub const A: Buttons = Buttons(0x80);
    /// B (rotate counter-clockwise).
    pub const B: Buttons = Buttons(0x40);
    /// Select (toggles the next-piece preview).
    pub const SELECT: Buttons = Buttons(0x20);
    /// Start (pause).
    pub const START: Buttons = Buttons(0x10);
    /// Up.
    pub const UP: Buttons = Buttons(0x08);
    /// Down (soft drop).
    pub const DOWN: Buttons = Buttons(0x04);
    /// Left.
    pub const LEFT: Buttons = Buttons(0x02);
    /// Right.
    pub const RIGHT: Buttons = Buttons(0x01);
    /// The D-pad bits.
    pub const DPAD: Buttons = Buttons(0x0F);

    /// The letters used by the conformance traces, in their order, with their bits.
    const LETTERS: [(char, u8); 8] = [
        ('L', 0x02),
        ('R', 0x01),
        ('U', 0x08),
        ('D', 0x04),
        ('A', 0x80),
        ('B', 0x40),
        ('S', 0x20),
        ('T', 0x10),
    ];

    /// The raw byte.
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// True if every button of `other` is held.
    #[inline]
    pub const fn contains(self, other: Buttons) -> bool {
        self.0 & other.0 == other.0
    }

    /// True if no button is held.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Parses the trace notation: letters `L R U D A B S T` in any order, or `.` for none.
    pub fn parse(text: &str) -> Option<Buttons> {
        let text = text.trim();
        if text == "." || text.is_empty() {
            return Some(Buttons::NONE);
        }
        let mut bits = 0u8;
        for ch in text.chars() {
            let (_, bit) = Self::LETTERS
                .iter()
                .find(|(c, _)| *c == ch.to_ascii_uppercase())?;
            bits |= bit;
        }
        Some(Buttons(bits))
    }
}

impl core::ops::BitOr for Buttons {
    type Output = Buttons;
    fn bitor(self, rhs: Buttons) -> Buttons {
        Buttons(self.0 | rhs.0)
    }
}

impl core::ops::BitOrAssign for Buttons {
    fn bitor_assign(&mut self, rhs: Buttons) {
        self.0 |= rhs.0;
    }
}

impl core::ops::BitAnd for Buttons {
    type Output = Buttons;
    fn bitand(self, rhs: Buttons) -> Buttons {
        Buttons(self.0 & rhs.0)
    }
}

impl core::ops::Not for Buttons {
    type Output = Buttons;
    fn not(self) -> Buttons {
        Buttons(!self.0)
    }
}

/// Writes the trace notation (`LRUDABST` order, `.` for none).
impl fmt::Display for Buttons {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str(".");
        }
        for (ch, bit) in Self::LETTERS {
            if self.0 & bit != 0 {
                fmt::Write::write_char(f, ch)?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Buttons {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Buttons({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display_round_trip() {
        for bits in 0..=255u8 {
            let b = Buttons(bits);
            assert_eq!(Buttons::parse(&b.to_string()), Some(b));
        }
        assert_eq!(Buttons::parse("x"), None);
        assert_eq!(Buttons::parse("DLR"), Some(Buttons(7)));
    }
}
