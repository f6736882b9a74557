//! Colours: the NES 2C02's 64-entry master palette and the four-colour sub-palettes the
//! screens draw their tiles with.
//!
//! A tile pixel is a 2-bit index into a sub-palette of four master-palette entries, as on
//! the console; index 0 is the backdrop (black here). The playfield's sub-palette changes
//! with the level, cycling every ten levels; its three colours are the three block tiles.

/// The 2C02 master palette as 0RGB, in the widely shared public approximation emulators
/// have used for decades (entries $0D-$0F, $1D-$1F, $2E-$2F, $3E-$3F are black).
pub const NES_RGB: [u32; 64] = [
    0x747474, 0x24188C, 0x0000A8, 0x44009C, 0x8C0074, 0xA80010, 0xA40000, 0x7C0800, //
    0x402C00, 0x004400, 0x005000, 0x003C14, 0x183C5C, 0x000000, 0x000000, 0x000000, //
    0xBCBCBC, 0x0070EC, 0x2038EC, 0x8000F0, 0xBC00BC, 0xE40058, 0xD82800, 0xC84C0C, //
    0x887000, 0x009400, 0x00A800, 0x009038, 0x008088, 0x000000, 0x000000, 0x000000, //
    0xFCFCFC, 0x3CBCFC, 0x5C94FC, 0xCC88FC, 0xF478FC, 0xFC74B4, 0xFC7460, 0xFC9838, //
    0xF0BC3C, 0x80D010, 0x4CDC48, 0x58F898, 0x00E8D8, 0x787878, 0x000000, 0x000000, //
    0xFCFCFC, 0xA8E4FC, 0xC4D4FC, 0xD4C8FC, 0xFCC4FC, 0xFCC4D8, 0xFCBCB0, 0xFCD8A8, //
    0xFCE4A0, 0xE0FCA0, 0xA8F0BC, 0xB0FCCC, 0x9CFCF0, 0xC4C4C4, 0x000000, 0x000000, //
];

/// Four master-palette entries; tile pixel `i` takes colour `SubPalette[i]`.
pub type SubPalette = [u8; 4];

/// A sub-palette resolved to 0RGB, ready to draw with.
pub type Colours = [u32; 4];

/// The master-palette entry used as the backdrop everywhere.
pub const BLACK: u8 = 0x0F;
/// Plain white.
pub const WHITE: u8 = 0x30;

/// The 0RGB colour of a master-palette entry (the top two bits are ignored, as by the PPU).
#[inline]
pub const fn rgb(entry: u8) -> u32 {
    NES_RGB[(entry & 0x3F) as usize]
}

/// A sub-palette as 0RGB colours.
pub const fn resolve(p: SubPalette) -> Colours {
    [rgb(p[0]), rgb(p[1]), rgb(p[2]), rgb(p[3])]
}

/// Which colours the blocks take at each level.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum LevelColours {
    /// The cartridge's own (its `colorTable`): level 18 red and blue, 19 orange and red,
    /// the colours players read levels by.
    #[default]
    Classic,
    /// This project's ([`NESTRIS_LEVEL_COLOURS`]): a darker and a lighter hue per level.
    Nestris,
}

impl LevelColours {
    /// Both, the default first.
    pub const ALL: [LevelColours; 2] = [LevelColours::Classic, LevelColours::Nestris];

    /// The name on the command line: `classic` or `nestris`.
    pub const fn name(self) -> &'static str {
        match self {
            LevelColours::Classic => "classic",
            LevelColours::Nestris => "nestris",
        }
    }

    /// The colours named `name` ([`LevelColours::name`]).
    pub fn from_name(name: &str) -> Option<LevelColours> {
        LevelColours::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// This project's two level colours for levels ending in 0..=9: (`a`, `b`). Colour `a`
/// is the solid block of J and S and the rim of T, O and I; colour `b` is the solid
/// block of Z and L. A darker and a lighter hue per level, so the two solid blocks stay
/// apart and both stand out from the white ones.
pub const NESTRIS_LEVEL_COLOURS: [(u8, u8); 10] = [
    (0x12, 0x2C), // blue, aqua
    (0x1A, 0x28), // green, gold
    (0x14, 0x26), // purple, salmon
    (0x16, 0x21), // vermilion, sky
    (0x1C, 0x24), // teal, pink
    (0x13, 0x2A), // violet, lime
    (0x17, 0x3C), // rust, ice
    (0x15, 0x38), // raspberry, cream
    (0x19, 0x23), // leaf, lavender
    (0x11, 0x27), // azure, orange
];

/// The playfield sub-palette at `level`: backdrop, white, colour `a` (J, S and the rims),
/// colour `b` (Z, L).
///
/// Both cycle by `level % 10`. The cartridge's own breaks from level 138, where it reads
/// its palette from past its table ([`nestris_core::tables::color_table_entry`]): the
/// levels that land back in the table show that entry, as the cartridge does; the others
/// would need the cartridge's code bytes and keep `level % 10` (not what it shows).
pub const fn level_palette(level: u8, colours: LevelColours) -> SubPalette {
    match colours {
        LevelColours::Classic => {
            let entry = match nestris_core::tables::color_table_entry(level) {
                Some(e) => e,
                None => (level % 10) as usize,
            };
            let [_, _, c3, c4] = nestris_core::tables::COLOR_TABLE[entry];
            [BLACK, WHITE, c4, c3]
        }
        LevelColours::Nestris => {
            let (a, b) = NESTRIS_LEVEL_COLOURS[(level % 10) as usize];
            [BLACK, WHITE, a, b]
        }
    }
}

/// Box frames: a tube of white, light grey and mid grey.
pub const FRAME: SubPalette = [BLACK, WHITE, 0x10, 0x00];
/// The backdrop pattern behind the boxes: dark slate and teal.
pub const BACKDROP: SubPalette = [BLACK, 0x0C, 0x1C, 0x01];
/// Plain text.
pub const TEXT: SubPalette = [BLACK, WHITE, 0x10, 0x00];
/// Labels (LINES, SCORE, NEXT ...).
pub const LABEL: SubPalette = [BLACK, 0x3C, 0x21, 0x11];
/// Menu cursors and highlighted choices.
pub const CURSOR: SubPalette = [BLACK, 0x27, 0x37, 0x16];
/// The sky, stars and ground of the A-type ending.
pub const NIGHT: SubPalette = [BLACK, 0x30, 0x2D, 0x01];
/// The rocket of the A-type ending.
pub const ROCKET: SubPalette = [BLACK, WHITE, 0x16, 0x00];
/// The rocket's exhaust.
pub const FLAME: SubPalette = [BLACK, 0x38, 0x27, 0x16];
/// Ground and launch tower.
pub const GROUND: SubPalette = [BLACK, 0x1A, 0x09, 0x2D];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_cycle_every_ten() {
        for c in LevelColours::ALL {
            assert_eq!(level_palette(3, c), level_palette(13, c));
            assert_eq!(level_palette(7, c), level_palette(137, c));
            assert_ne!(level_palette(0, c), level_palette(1, c));
        }
        assert_eq!(
            level_palette(0, LevelColours::Nestris),
            level_palette(250, LevelColours::Nestris)
        );
    }

    #[test]
    fn classic_colours_are_the_cartridges() {
        let c = LevelColours::Classic;
        // Level 18: J, S and the rims blue, Z and L red; level 19: red and orange.
        assert_eq!(level_palette(18, c), [BLACK, WHITE, 0x12, 0x16]);
        assert_eq!(level_palette(19, c), [BLACK, WHITE, 0x16, 0x27]);
        assert_eq!(level_palette(0, c), [BLACK, WHITE, 0x12, 0x21]);
        // Past level 137 the cartridge indexes by 4 x level mod 256: 193 shows level 1's.
        assert_eq!(level_palette(193, c), level_palette(1, c));
        assert_ne!(level_palette(193, c), level_palette(3, c));
        assert_eq!(
            LevelColours::from_name("nestris"),
            Some(LevelColours::Nestris)
        );
        assert_eq!(
            LevelColours::from_name("classic"),
            Some(LevelColours::default())
        );
    }

    #[test]
    fn the_two_level_colours_differ_and_are_not_black() {
        for (a, b) in NESTRIS_LEVEL_COLOURS {
            assert_ne!(a, b);
            assert_ne!(rgb(a), 0);
            assert_ne!(rgb(b), 0);
        }
    }
}
