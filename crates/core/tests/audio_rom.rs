//! The sound engine's music with the cartridge's own data: needs the user's Tetris (USA)
//! image in `NESTRIS_ROM` (no ROM is part of this project).
//!
//! The figures were measured on the cartridge in tetanes-core by calling `updateAudio_jmp`
//! on its own once per frame, from the state the reset code leaves, after writing the
//! track into `musicTrack`: the cycles of the first 8 and the last 10 of 1,200 frames, and
//! their sum.

use nestris_core::audio::{Audio, MusicData};

#[test]
#[ignore = "needs NESTRIS_ROM"]
fn every_track_costs_what_the_cartridge_measured() {
    let path = std::env::var_os("NESTRIS_ROM").expect("NESTRIS_ROM names the image");
    let image = std::fs::read(path).expect("NESTRIS_ROM is readable");
    // iNES header, then the 32 KiB PRG.
    let music = MusicData::from_prg(&image[16..16 + 0x8000]).expect("a 32 KiB PRG");
    #[rustfmt::skip]
    let tracks: [(u8, [u32; 8], u64, [u32; 10]); 10] = [
        (1, [2755, 835, 835, 835, 835, 835, 835, 835], 1667453, [1463, 1463, 1370, 835, 835, 835, 835, 835, 835, 835]),
        (2, [2740, 1481, 1443, 1481, 1443, 1481, 1418, 937], 518808, [296; 10]),
        (3, [2915, 1313, 1275, 1313, 1275, 1313, 1275, 1313], 1559576, [1247, 1285, 1247, 1285, 1247, 1285, 1247, 1285, 1247, 1285]),
        (4, [2960, 1182, 1163, 1182, 1163, 1182, 1163, 1182], 1604818, [1471, 1509, 1471, 1509, 1471, 1509, 1471, 1411, 1411, 1411]),
        (5, [2408, 861, 861, 861, 861, 861, 861, 861], 1501879, [1287, 1325, 1209, 1325, 1287, 1325, 1287, 1325, 1287, 1325]),
        (6, [2914, 1313, 1275, 1313, 1275, 1313, 1275, 1313], 1548616, [1247, 1285, 1225, 1285, 1397, 1285, 1225, 1285, 1247, 1285]),
        (7, [2960, 1182, 1163, 1182, 1163, 1182, 1163, 1182], 1682067, [1396, 1396, 1808, 1495, 1457, 1495, 1635, 1495, 1607, 1495]),
        (8, [2408, 861, 861, 861, 861, 861, 861, 861], 1504325, [1287, 1325, 1222, 1325, 1208, 1325, 1287, 1325, 1287, 1325]),
        (9, [2756, 1327, 1289, 1327, 1289, 1227, 1227, 1227], 1459264, [1227, 1104, 1104, 1104, 1104, 1104, 1104, 1104, 1104, 1104]),
        (10, [2794, 972, 953, 972, 953, 972, 1094, 972], 1296923, [1037, 1075, 1037, 1075, 1267, 1075, 1037, 1075, 1037, 1075]),
    ];
    for (track, first, sum, last) in tracks {
        let mut a = Audio::CLEARED;
        a.reset();
        a.silence();
        a.set_music_track(track);
        let cycles: Vec<u32> = (0..1200)
            .map(|_| {
                let u = a.update(Some(&music));
                assert!(u.exact, "track {track}");
                u.cycles
            })
            .collect();
        assert_eq!(cycles[..8], first, "track {track}");
        assert_eq!(cycles[1190..], last, "track {track}");
        assert_eq!(
            cycles.iter().map(|&c| c as u64).sum::<u64>(),
            sum,
            "track {track}"
        );
    }
    // Track 2 (the B-type goal) ends with a $0000 routine: the music stops by itself.
    let mut a = Audio::CLEARED;
    a.reset();
    a.set_music_track(2);
    for _ in 0..1200 {
        a.update(Some(&music));
    }
    assert_eq!(a.currently_playing_music_track, 0);
}
