//! Gamepads as controller 1 (through gilrs), hot-plugged.
//!
//! The D-pad and the left stick (past the config's deadzone) steer; the face and menu
//! buttons are bound in the config (by default East = A and South = B, the NES pad's
//! layout: A on the right). Every connected pad counts, ORed together. A press that
//! comes and goes between two frames is latched for one frame, as on the keyboard.
//! No gamepad support on the system, or no pad plugged in, is no problem.

use gilrs::{Axis, Button, EventType, Gilrs};
use nestris_core::Buttons;

use crate::config::{PadBindings, PadButton};

/// gilrs' button for a config name.
fn gilrs_button(b: PadButton) -> Button {
    match b {
        PadButton::South => Button::South,
        PadButton::East => Button::East,
        PadButton::North => Button::North,
        PadButton::West => Button::West,
        PadButton::Select => Button::Select,
        PadButton::Start => Button::Start,
        PadButton::Mode => Button::Mode,
        PadButton::LeftTrigger => Button::LeftTrigger,
        PadButton::RightTrigger => Button::RightTrigger,
        PadButton::LeftTrigger2 => Button::LeftTrigger2,
        PadButton::RightTrigger2 => Button::RightTrigger2,
        PadButton::LeftThumb => Button::LeftThumb,
        PadButton::RightThumb => Button::RightThumb,
    }
}

/// Which gamepad buttons press which NES buttons.
#[derive(Clone, Debug, PartialEq)]
pub struct PadMap {
    buttons: Vec<(Button, Buttons)>,
    deadzone: f32,
}

impl PadMap {
    /// The map the config describes (the D-pad is always the D-pad).
    pub fn new(b: &PadBindings) -> PadMap {
        let mut buttons = vec![
            (Button::DPadUp, Buttons::UP),
            (Button::DPadDown, Buttons::DOWN),
            (Button::DPadLeft, Buttons::LEFT),
            (Button::DPadRight, Buttons::RIGHT),
        ];
        for (list, nes) in [
            (&b.a, Buttons::A),
            (&b.b, Buttons::B),
            (&b.start, Buttons::START),
            (&b.select, Buttons::SELECT),
        ] {
            buttons.extend(list.iter().map(|&p| (gilrs_button(p), nes)));
        }
        PadMap {
            buttons,
            deadzone: b.deadzone,
        }
    }

    /// The NES buttons of one gamepad button.
    pub fn button(&self, b: Button) -> Buttons {
        let mut out = Buttons::NONE;
        for &(pad, nes) in &self.buttons {
            if pad == b {
                out |= nes;
            }
        }
        out
    }

    /// The NES buttons of a pad's state: `pressed` tells which buttons are down, and
    /// (`x`, `y`) is the left stick (-1..1, y up).
    pub fn state(&self, pressed: impl Fn(Button) -> bool, x: f32, y: f32) -> Buttons {
        let mut out = Buttons::NONE;
        for &(pad, nes) in &self.buttons {
            if pressed(pad) {
                out |= nes;
            }
        }
        let d = self.deadzone;
        if x <= -d {
            out |= Buttons::LEFT;
        }
        if x >= d {
            out |= Buttons::RIGHT;
        }
        if y >= d {
            out |= Buttons::UP;
        }
        if y <= -d {
            out |= Buttons::DOWN;
        }
        out
    }
}

/// All gamepads, or none if the system offers no gamepad support.
pub struct Gamepads {
    gilrs: Option<Gilrs>,
    map: PadMap,
    latched: Buttons,
    /// Presses of the first two pads since the last sample, for two players.
    latched_each: [Buttons; 2],
}

impl std::fmt::Debug for Gamepads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gamepads")
            .field("available", &self.gilrs.is_some())
            .field("map", &self.map)
            .finish()
    }
}

impl Gamepads {
    /// Opens gamepad support; without it (one line on stderr) the game runs on keys.
    pub fn new(bindings: &PadBindings) -> Gamepads {
        let gilrs = match Gilrs::new() {
            Ok(g) => Some(g),
            Err(e) => {
                eprintln!("nestris: no gamepad support ({e}); playing with the keyboard");
                None
            }
        };
        Gamepads {
            gilrs,
            map: PadMap::new(bindings),
            latched: Buttons::NONE,
            latched_each: [Buttons::NONE; 2],
        }
    }

    /// Takes in the gamepads' events (presses, plugging in and out).
    pub fn poll(&mut self) {
        let Some(gilrs) = &mut self.gilrs else {
            return;
        };
        while let Some(ev) = gilrs.next_event() {
            match ev.event {
                EventType::ButtonPressed(b, _) => {
                    let nes = self.map.button(b);
                    self.latched |= nes;
                    // Which player: the pad's place among those connected (by id).
                    let place = gilrs.gamepads().position(|(id, _)| id == ev.id);
                    if let Some(l) = place.and_then(|i| self.latched_each.get_mut(i)) {
                        *l |= nes;
                    }
                }
                EventType::Connected => {
                    let name = gilrs.gamepad(ev.id).name().to_string();
                    eprintln!("nestris: gamepad connected: {name}");
                }
                EventType::Disconnected => eprintln!("nestris: gamepad disconnected"),
                _ => {}
            }
        }
    }

    /// The buttons for this frame of the first two pads (by the order they are known
    /// in), for two players; clears the latches.
    pub fn sample_two(&mut self) -> [Buttons; 2] {
        self.poll();
        self.latched = Buttons::NONE;
        let mut out = std::mem::take(&mut self.latched_each);
        if let Some(gilrs) = &self.gilrs {
            for ((_, pad), o) in gilrs.gamepads().zip(out.iter_mut()) {
                *o |= self.map.state(
                    |b| pad.is_pressed(b),
                    pad.value(Axis::LeftStickX),
                    pad.value(Axis::LeftStickY),
                );
            }
        }
        out
    }

    /// The buttons for this frame from every connected pad; clears the latches.
    pub fn sample(&mut self) -> Buttons {
        self.poll();
        self.latched_each = [Buttons::NONE; 2];
        let mut out = std::mem::take(&mut self.latched);
        if let Some(gilrs) = &self.gilrs {
            for (_, pad) in gilrs.gamepads() {
                out |= self.map.state(
                    |b| pad.is_pressed(b),
                    pad.value(Axis::LeftStickX),
                    pad.value(Axis::LeftStickY),
                );
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    #[test]
    fn buttons_and_stick() {
        let m = PadMap::new(&Config::default().gamepad);
        assert_eq!(m.button(Button::East), Buttons::A);
        assert_eq!(m.button(Button::South), Buttons::B);
        assert_eq!(m.button(Button::Start), Buttons::START);
        assert_eq!(m.button(Button::Select), Buttons::SELECT);
        assert_eq!(m.button(Button::DPadLeft), Buttons::LEFT);
        assert_eq!(m.button(Button::North), Buttons::NONE);
        let none = |_| false;
        assert_eq!(m.state(none, 0.0, 0.0), Buttons::NONE);
        // Inside the deadzone: nothing; past it: the direction.
        assert_eq!(m.state(none, 0.3, -0.45), Buttons::NONE);
        assert_eq!(m.state(none, -0.8, 0.0), Buttons::LEFT);
        assert_eq!(m.state(none, 0.6, 0.7), Buttons::RIGHT | Buttons::UP);
        assert_eq!(m.state(none, 0.0, -1.0), Buttons::DOWN);
        let a_and_down = |b| matches!(b, Button::East | Button::DPadDown);
        assert_eq!(m.state(a_and_down, 0.0, 0.0), Buttons::A | Buttons::DOWN);
    }

    #[test]
    fn no_gamepad_is_no_problem() {
        let mut pads = Gamepads::new(&Config::default().gamepad);
        assert_eq!(pads.sample(), Buttons::NONE);
        assert_eq!(pads.sample_two(), [Buttons::NONE; 2]);
        assert!(format!("{pads:?}").contains("available"));
    }
}
