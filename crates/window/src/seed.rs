//! The seed entry on the level menu: six hex digits, as TetrisGYM's menu takes them.
//!
//! Driven by the NES buttons, so a gamepad can enter a seed as the keyboard does: Left
//! and Right choose a digit, Up and Down change it, A or Start confirms, B cancels,
//! Select clears the seed (back to the cartridge's own generator). Typed hex digits go in
//! at the cursor. What the entry gives back is applied by the session as a
//! [`nestris_core::Variant`] on the game.

use nestris_core::{Buttons, GymSeed, SeedRule};

/// What the player decided.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SeedChoice {
    /// Still entering.
    Editing,
    /// Leave the seed as it was.
    Cancel,
    /// Play this seed (`None`: the cartridge's generator).
    Set(Option<GymSeed>),
}

/// The entry's state.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SeedEntry {
    digits: [u8; 6],
    cursor: usize,
    held: Buttons,
}

impl SeedEntry {
    /// Opens with `current`'s digits (a random-looking default without one), with
    /// `held` (the buttons down as it opens) not counted as presses.
    pub fn open(current: Option<GymSeed>, held: Buttons) -> SeedEntry {
        let value = current.map_or(0x00_10_00, |s| s.value());
        let mut digits = [0; 6];
        for (i, d) in digits.iter_mut().enumerate() {
            *d = ((value >> (4 * (5 - i))) & 0xF) as u8;
        }
        SeedEntry {
            digits,
            cursor: 0,
            held,
        }
    }

    /// The seed the digits say.
    pub fn value(&self) -> u32 {
        self.digits.iter().fold(0, |v, &d| (v << 4) | u32::from(d))
    }

    /// One frame's buttons: acts on the newly pressed ones.
    pub fn buttons(&mut self, b: Buttons) -> SeedChoice {
        let pressed = Buttons(b.0 & !self.held.0);
        self.held = b;
        if pressed.contains(Buttons::B) {
            return SeedChoice::Cancel;
        }
        if pressed.contains(Buttons::SELECT) {
            return SeedChoice::Set(None);
        }
        if pressed.contains(Buttons::A) || pressed.contains(Buttons::START) {
            return SeedChoice::Set(GymSeed::new(self.value(), SeedRule::V5));
        }
        if pressed.contains(Buttons::LEFT) {
            self.cursor = (self.cursor + 5) % 6;
        }
        if pressed.contains(Buttons::RIGHT) {
            self.cursor = (self.cursor + 1) % 6;
        }
        let d = &mut self.digits[self.cursor];
        if pressed.contains(Buttons::UP) {
            *d = (*d + 1) & 0xF;
        }
        if pressed.contains(Buttons::DOWN) {
            *d = (*d + 15) & 0xF;
        }
        SeedChoice::Editing
    }

    /// A typed hex digit (0-15) at the cursor, which then moves right.
    pub fn type_digit(&mut self, digit: u8) {
        self.digits[self.cursor] = digit & 0xF;
        self.cursor = (self.cursor + 1) % 6;
    }

    /// The dialog's lines: the digits and a caret under the chosen one.
    pub fn lines(&self) -> [String; 5] {
        let digits: String = self
            .digits
            .iter()
            .map(|&d| {
                char::from_digit(u32::from(d), 16)
                    .unwrap_or('0')
                    .to_ascii_uppercase()
            })
            .collect();
        // As wide as the digits, so that both centre alike.
        let mut caret = " ".repeat(self.cursor);
        caret.push('^');
        caret.push_str(&" ".repeat(5 - self.cursor));
        [
            "SEED".to_string(),
            digits,
            caret,
            "A: PLAY  B: BACK".to_string(),
            "SELECT: NO SEED".to_string(),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(e: &mut SeedEntry, b: Buttons) -> SeedChoice {
        let c = e.buttons(b);
        if c == SeedChoice::Editing {
            assert_eq!(e.buttons(Buttons::NONE), SeedChoice::Editing);
        }
        c
    }

    #[test]
    fn digits_are_chosen_and_changed_with_the_pad() {
        let mut e = SeedEntry::open(None, Buttons::SELECT);
        // Select held as it opened is not a press.
        assert_eq!(e.buttons(Buttons::SELECT), SeedChoice::Editing);
        assert_eq!(e.buttons(Buttons::NONE), SeedChoice::Editing);
        assert_eq!(e.value(), 0x001000);
        press(&mut e, Buttons::UP);
        press(&mut e, Buttons::LEFT);
        press(&mut e, Buttons::DOWN);
        assert_eq!(e.value(), 0x10100F);
        e.type_digit(0xA);
        assert_eq!(e.value(), 0x10100A);
        assert_eq!(e.lines()[1], "10100A");
        assert_eq!(
            e.lines()[2],
            "^     ",
            "the cursor wrapped to the first digit"
        );
        let want = GymSeed::new(0x10100A, SeedRule::V5);
        assert_eq!(press(&mut e, Buttons::A), SeedChoice::Set(want));
    }

    #[test]
    fn back_and_no_seed() {
        let seed = GymSeed::new(0xABCDEF, SeedRule::V5);
        let mut e = SeedEntry::open(seed, Buttons::NONE);
        assert_eq!(e.value(), 0xABCDEF);
        assert_eq!(press(&mut e, Buttons::B), SeedChoice::Cancel);
        let mut e = SeedEntry::open(seed, Buttons::NONE);
        assert_eq!(press(&mut e, Buttons::SELECT), SeedChoice::Set(None));
    }
}
