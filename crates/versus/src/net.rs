//! A versus match over the network: one side hosts, the other joins, and each streams
//! its own inputs to the other, frame by frame.
//!
//! The boards do not interact, so neither side waits for the other: the local game runs
//! on the local clock, and the opponent's game is simulated from its inputs as they
//! arrive, a few frames late (the network's delay) but never stalling the local game. A
//! connection that drops or sends nonsense ends the match cleanly
//! ([`Event::Closed`]).
//!
//! The wire: the host sends a hello (`NESVS1`, the [`MatchSetup`]); the joiner answers
//! with the same magic. Then each side sends one 4-byte message per local frame: the
//! buttons, the game number (little-endian), and a flags byte; flag [`BYE`] says the
//! side has left the match (its last frame was the one before).

use std::io::{self, BufReader, BufWriter, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::thread::JoinHandle;
use std::time::Duration;

use nestris_core::{Buttons, Region};

use crate::{Input, MatchSetup};

/// The hello's first bytes (the protocol's version is its last digit).
pub const MAGIC: &[u8; 6] = b"NESVS1";

/// The last message of a side that leaves.
pub const BYE: u8 = 1;

/// How long connecting and the hello may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a link could not be made.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The socket failed.
    #[error("network: {0}")]
    Io(#[from] io::Error),
    /// The other side is not a nestris versus match of this version.
    #[error("the other side is not a nestris versus match (or another version)")]
    NotVersus,
    /// The host's setup is not one this side can play.
    #[error("the host's match setup is invalid: {0}")]
    Setup(#[from] crate::SetupError),
}

/// What arrives from the opponent.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Event {
    /// One frame of the opponent's input.
    Frame(Input),
    /// The opponent left, or the connection dropped (the reason, if not a goodbye).
    Closed(Option<&'static str>),
}

/// The link to the opponent.
#[derive(Debug)]
pub struct Link {
    out: BufWriter<TcpStream>,
    events: Receiver<Event>,
    reader: Option<JoinHandle<()>>,
    closed: bool,
}

fn setup_bytes(s: &MatchSetup) -> [u8; 8] {
    let region = match s.region {
        Region::Ntsc => 0,
        Region::Pal => 1,
    };
    let seed = s.seed.to_le_bytes();
    [region, s.level, seed[0], seed[1], seed[2], s.best_of, 0, 0]
}

fn setup_from(b: &[u8; 8]) -> Result<MatchSetup, NetError> {
    let region = match b[0] {
        0 => Region::Ntsc,
        1 => Region::Pal,
        _ => return Err(NetError::NotVersus),
    };
    let s = MatchSetup {
        region,
        level: b[1],
        seed: u32::from_le_bytes([b[2], b[3], b[4], 0]),
        best_of: b[5],
    };
    s.validate()?;
    Ok(s)
}

/// Waits on `port` (all interfaces) for one opponent and sends it `setup`.
pub fn host(port: u16, setup: &MatchSetup) -> Result<Link, NetError> {
    let listener = TcpListener::bind(("0.0.0.0", port))?;
    host_on(listener, setup)
}

/// [`host`] on a listener already bound (a test binds port 0 and reads the port).
pub fn host_on(listener: TcpListener, setup: &MatchSetup) -> Result<Link, NetError> {
    setup.validate()?;
    let (stream, _) = listener.accept()?;
    stream.set_read_timeout(Some(HANDSHAKE_TIMEOUT))?;
    let mut hello = Vec::with_capacity(14);
    hello.extend_from_slice(MAGIC);
    hello.extend_from_slice(&setup_bytes(setup));
    (&stream).write_all(&hello)?;
    let mut answer = [0u8; 6];
    (&stream).read_exact(&mut answer)?;
    if &answer != MAGIC {
        return Err(NetError::NotVersus);
    }
    Link::start(stream)
}

/// Connects to a host (`HOST:PORT`) and takes its setup.
pub fn join(addr: &str) -> Result<(Link, MatchSetup), NetError> {
    let addrs: Vec<SocketAddr> = addr.to_socket_addrs()?.collect();
    let mut last = io::Error::new(io::ErrorKind::NotFound, "no address");
    for a in addrs {
        match TcpStream::connect_timeout(&a, HANDSHAKE_TIMEOUT) {
            Ok(stream) => {
                stream.set_read_timeout(Some(HANDSHAKE_TIMEOUT))?;
                let mut hello = [0u8; 14];
                (&stream).read_exact(&mut hello)?;
                if &hello[..6] != MAGIC {
                    return Err(NetError::NotVersus);
                }
                let setup = setup_from(hello[6..].try_into().expect("8 bytes"))?;
                (&stream).write_all(MAGIC)?;
                return Ok((Link::start(stream)?, setup));
            }
            Err(e) => last = e,
        }
    }
    Err(last.into())
}

impl Link {
    fn start(stream: TcpStream) -> Result<Link, NetError> {
        stream.set_nodelay(true)?;
        // Play has no timeout: a silent opponent is one that is slow, until the
        // connection says it is gone.
        stream.set_read_timeout(None)?;
        let reading = stream.try_clone()?;
        let (tx, events) = channel();
        let reader = std::thread::spawn(move || {
            let mut r = BufReader::new(reading);
            let mut m = [0u8; 4];
            loop {
                let event = match r.read_exact(&mut m) {
                    Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                        Event::Closed(Some("the connection was closed"))
                    }
                    Err(_) => Event::Closed(Some("the connection dropped")),
                    Ok(()) if m[3] == BYE => Event::Closed(None),
                    Ok(()) if m[3] != 0 => Event::Closed(Some("the opponent sent nonsense")),
                    Ok(()) => Event::Frame(Input {
                        buttons: Buttons(m[0]),
                        game: u16::from_le_bytes([m[1], m[2]]),
                    }),
                };
                let closed = matches!(event, Event::Closed(_));
                if tx.send(event).is_err() || closed {
                    return;
                }
            }
        });
        Ok(Link {
            out: BufWriter::new(stream),
            events,
            reader: Some(reader),
            closed: false,
        })
    }

    /// Sends one local frame (buffered: [`Link::flush`] once per frame).
    pub fn send(&mut self, input: Input) -> io::Result<()> {
        let g = input.game.to_le_bytes();
        self.out.write_all(&[input.buttons.0, g[0], g[1], 0])
    }

    /// Sends what was buffered.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The next thing the opponent sent, if it has arrived.
    pub fn poll(&mut self) -> Option<Event> {
        if self.closed {
            return None;
        }
        match self.events.try_recv() {
            Ok(e) => {
                self.closed = matches!(e, Event::Closed(_));
                Some(e)
            }
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                self.closed = true;
                Some(Event::Closed(Some("the connection dropped")))
            }
        }
    }

    /// Waits for the next thing the opponent sends (at the end of a match, to see the
    /// rest of its game).
    pub fn wait(&mut self) -> Option<Event> {
        if self.closed {
            return None;
        }
        let e = self
            .events
            .recv()
            .unwrap_or(Event::Closed(Some("the connection dropped")));
        self.closed = matches!(e, Event::Closed(_));
        Some(e)
    }

    /// Says goodbye and closes the sending half.
    pub fn bye(&mut self) -> io::Result<()> {
        self.out.write_all(&[0, 0, 0, BYE])?;
        self.out.flush()?;
        self.out.get_ref().shutdown(std::net::Shutdown::Write)
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        let _ = self.out.flush();
        let _ = self.out.get_ref().shutdown(std::net::Shutdown::Both);
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
    }
}

/// A network match without a screen (bots, tests): player `me` (0 hosts, 1 joins)
/// plays `frames` local frames with `policy` (called with its own game; the next game
/// starts as soon as the match allows), streaming them, and simulating the opponent from
/// what arrives; then says goodbye and waits for the rest of the opponent's stream, so
/// that both games are whole. Returns the match as this side saw it, as a file would
/// hold it, and why the link closed if not by a goodbye.
pub fn play_headless(
    link: &mut Link,
    setup: MatchSetup,
    me: usize,
    frames: u64,
    mut policy: impl FnMut(&nestris_core::Game) -> Buttons,
) -> (crate::file::VersusReplay, Option<&'static str>) {
    let mut m = crate::Match::new(setup);
    let mut inputs: [Vec<Input>; 2] = [Vec::new(), Vec::new()];
    let them = 1 - me;
    // `Some(why)` once the link has closed (`why` is `None` for a goodbye).
    let mut closed: Option<Option<&'static str>> = None;
    let take = |e: Event, m: &mut crate::Match, inputs: &mut [Vec<Input>; 2]| match e {
        Event::Frame(i) => {
            m.apply(them, i);
            inputs[them].push(i);
            None
        }
        Event::Closed(why) => Some(why),
    };
    for _ in 0..frames {
        if m.finished() {
            break;
        }
        let b = policy(&m.sides[me].game);
        let i = m.input_for(me, b, true);
        m.apply(me, i);
        inputs[me].push(i);
        // After the opponent's goodbye it still reads, waiting for the rest of this game.
        if !matches!(closed, Some(Some(_))) && link.send(i).and_then(|()| link.flush()).is_err() {
            closed = Some(Some("the connection dropped"));
        }
        while closed.is_none() {
            match link.poll() {
                Some(e) => closed = take(e, &mut m, &mut inputs),
                None => break,
            }
        }
        if let Some(Some(_)) = closed {
            // The connection dropped: the match ends here, cleanly.
            break;
        }
    }
    if !matches!(closed, Some(Some(_))) && link.bye().is_err() && closed.is_none() {
        closed = Some(Some("the connection dropped"));
    }
    if closed.is_none() {
        while let Some(e) = link.wait() {
            closed = take(e, &mut m, &mut inputs);
            if closed.is_some() {
                break;
            }
        }
    }
    let closed = closed.flatten();
    (crate::file::VersusReplay::of(&m, inputs), closed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_over_loopback_sees_each_side_s_inputs_and_a_goodbye() {
        let setup = crate::tests::setup();
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        let host = std::thread::spawn(move || {
            let mut link = host_on(listener, &setup).unwrap();
            for i in 0..100u8 {
                link.send(Input {
                    buttons: Buttons(i),
                    game: u16::from(i / 50),
                })
                .unwrap();
            }
            link.bye().unwrap();
            let mut got = Vec::new();
            while let Some(Event::Frame(i)) = link.wait() {
                got.push(i);
            }
            got
        });
        let (mut link, got_setup) = join(&format!("127.0.0.1:{port}")).unwrap();
        assert_eq!(got_setup, setup);
        let mut got = Vec::new();
        loop {
            match link.wait() {
                Some(Event::Frame(i)) => got.push(i),
                Some(Event::Closed(why)) => {
                    assert_eq!(why, None, "a goodbye");
                    break;
                }
                None => unreachable!(),
            }
        }
        assert_eq!(got.len(), 100);
        assert_eq!(
            got[77],
            Input {
                buttons: Buttons(77),
                game: 1
            }
        );
        link.send(Input {
            buttons: Buttons::A,
            game: 0,
        })
        .unwrap();
        link.flush().unwrap();
        drop(link);
        let theirs = host.join().unwrap();
        assert_eq!(
            theirs,
            vec![Input {
                buttons: Buttons::A,
                game: 0
            }]
        );
    }

    /// A bot for the tests: soft drop with a shift that depends on the frame.
    fn bot(salt: u64) -> impl FnMut(&nestris_core::Game) -> Buttons {
        let mut f = 0u64;
        move |_| {
            f += 1;
            match (f * 5 + salt) % 19 {
                0 | 1 => Buttons::LEFT,
                7 => Buttons::RIGHT,
                9..=15 => Buttons::DOWN,
                _ => Buttons::NONE,
            }
        }
    }

    #[test]
    fn each_side_simulates_the_other_s_true_game() {
        let setup = crate::tests::setup();
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        let host = std::thread::spawn(move || {
            let mut link = host_on(listener, &setup).unwrap();
            play_headless(&mut link, setup, 0, 3000, bot(0))
        });
        let (mut link, setup) = join(&format!("127.0.0.1:{port}")).unwrap();
        let (joined, why) = play_headless(&mut link, setup, 1, 2500, bot(3));
        let (hosted, why_host) = host.join().unwrap();
        assert_eq!((why, why_host), (None, None), "both said goodbye");
        assert_eq!(
            hosted.inputs, joined.inputs,
            "both saw the same two streams"
        );
        assert_eq!(hosted.hashes, joined.hashes, "and the same two games");
        assert!(hosted.verify().is_ok());
        assert_eq!(joined.inputs[0].len(), 3000);
        assert_eq!(joined.inputs[1].len(), 2500);
    }

    #[test]
    fn a_dropped_connection_ends_the_match() {
        let setup = crate::tests::setup();
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        let host = std::thread::spawn(move || {
            let link = host_on(listener, &setup).unwrap();
            drop(link);
        });
        let (mut link, setup) = join(&format!("127.0.0.1:{port}")).unwrap();
        host.join().unwrap();
        let (r, why) = play_headless(&mut link, setup, 1, 1_000_000, bot(1));
        assert!(why.is_some(), "not a goodbye");
        assert!(r.inputs[1].len() < 1_000_000, "the match ended early");
    }

    #[test]
    fn something_that_is_not_a_host_is_refused() {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        let t = std::thread::spawn(move || {
            let (s, _) = listener.accept().unwrap();
            (&s).write_all(b"HTTP/1.1 200 OK\r\n").unwrap();
        });
        let e = join(&format!("127.0.0.1:{port}")).unwrap_err();
        assert!(matches!(e, NetError::NotVersus), "{e}");
        t.join().unwrap();
    }

    #[test]
    fn a_bad_setup_from_the_host_is_refused() {
        let mut b = setup_bytes(&crate::tests::setup());
        b[5] = 2;
        assert!(matches!(setup_from(&b), Err(NetError::Setup(_))));
        b[5] = 3;
        b[0] = 9;
        assert!(matches!(setup_from(&b), Err(NetError::NotVersus)));
    }
}
