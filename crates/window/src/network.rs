//! Versus over the network as the front end starts it: the address a joiner types (and
//! the reason one is refused), the one path that makes a network match from a role
//! ([`connect`]: the flags `--host` / `--join` and the setup screen both take it), and
//! [`Connecting`], that path on a thread of its own so the window keeps drawing while it
//! waits, with a cancel.
//!
//! The wire itself is [`nestris_versus::net`]'s.

use std::fmt;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::time::Duration;

use nestris_versus::net::{Link, NetError};
use nestris_versus::MatchSetup;

use crate::versus::Opponent;

/// The port a host listens on when none is given (the flag `--host` alone and the setup
/// screen's first value).
pub const DEFAULT_PORT: u16 = 7300;

/// The longest address typed (a host name and its port).
pub const MAX_ADDRESS: usize = 64;

/// The longest host: room left for the longest port after it, so that an address always
/// writes back to text of at most [`MAX_ADDRESS`].
const MAX_HOST: usize = MAX_ADDRESS - ":65535".len();

/// Why a typed address or port is refused (at most 28 characters: the setup screen's
/// text entry shows it on a line of its own).
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum AddressError {
    /// Nothing was typed.
    #[error("type the host as host:port")]
    Empty,
    /// Longer than [`MAX_ADDRESS`].
    #[error("at most {MAX_ADDRESS} characters")]
    TooLong,
    /// A port that is not a number from 1 to 65535.
    #[error("the port is 1 to 65535")]
    BadPort(String),
    /// A colon and a port with no host before it.
    #[error("no host before the port")]
    NoHost,
    /// A character no host name or IP address has.
    #[error("{} is not in an address", shown(*.0))]
    BadCharacter(char),
}

/// A refused character as the reason shows it: quoted when it prints as itself.
fn shown(c: char) -> String {
    match c.is_ascii_graphic() || c == ' ' {
        true => format!("{c:?}"),
        false => "a sign".into(),
    }
}

/// A port a host can listen on: 1 to 65535 (0 would be a port the system picks, which the
/// joiner could not know).
pub fn parse_port(text: &str) -> Result<u16, AddressError> {
    match text.parse::<u16>() {
        Ok(p) if p > 0 && text.bytes().all(|b| b.is_ascii_digit()) => Ok(p),
        _ => Err(AddressError::BadPort(text.to_string())),
    }
}

/// Where a joiner connects: a host name, an IPv4 address or a bracketed IPv6 address,
/// and a port.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct JoinAddress {
    /// The host as typed (an IPv6 address keeps its brackets).
    pub host: String,
    /// The port.
    pub port: u16,
}

impl fmt::Display for JoinAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.host, self.port)
    }
}

/// Reads `host:port` (`host` alone: [`DEFAULT_PORT`]). Hosts are names and IPv4 addresses
/// (letters, digits, `.`, `-`) or IPv6 addresses in brackets (`[::1]:7300`).
pub fn parse_address(text: &str) -> Result<JoinAddress, AddressError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(AddressError::Empty);
    }
    if text.chars().count() > MAX_ADDRESS {
        return Err(AddressError::TooLong);
    }
    let (host, port) = if let Some(rest) = text.strip_prefix('[') {
        let (inside, after) = rest
            .split_once(']')
            .ok_or(AddressError::BadCharacter('['))?;
        if let Some(c) = inside
            .chars()
            .find(|&c| !(c.is_ascii_hexdigit() || c == ':'))
        {
            return Err(AddressError::BadCharacter(c));
        }
        if inside.is_empty() {
            return Err(AddressError::NoHost);
        }
        let port = match after {
            "" => None,
            _ => Some(
                after
                    .strip_prefix(':')
                    .ok_or_else(|| AddressError::BadPort(after.to_string()))?,
            ),
        };
        (&text[..inside.len() + 2], port)
    } else {
        let (host, port) = match text.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (text, None),
        };
        if let Some(c) = host
            .chars()
            .find(|&c| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
        {
            return Err(AddressError::BadCharacter(c));
        }
        (host, port)
    };
    if host.is_empty() {
        return Err(AddressError::NoHost);
    }
    if host.len() > MAX_HOST {
        return Err(AddressError::TooLong);
    }
    let port = match port {
        Some(p) => parse_port(p)?,
        None => DEFAULT_PORT,
    };
    Ok(JoinAddress {
        host: host.to_ascii_lowercase(),
        port,
    })
}

/// Which side of a network match this one is.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NetRole {
    /// Wait for a guest on this port (all interfaces); the match is this side's setup.
    Host(u16),
    /// Connect to a host; the match is the host's setup.
    Join(JoinAddress),
}

impl NetRole {
    /// What the screen says while this role connects, on two lines.
    pub fn waiting_lines(&self) -> [String; 2] {
        match self {
            NetRole::Host(port) => ["WAITING FOR A GUEST".into(), format!("ON PORT {port}")],
            NetRole::Join(a) => ["CONNECTING TO".into(), a.to_string().to_uppercase()],
        }
    }
}

/// A network match, connected: the link to the other side and the match both play.
#[derive(Debug)]
pub struct NetMatch {
    /// The link.
    pub link: Link,
    /// The match (a joiner's is the host's).
    pub setup: MatchSetup,
    /// This side: 0 hosts (player 1, on the left), 1 joins.
    pub me: usize,
}

impl NetMatch {
    /// The names on the scoreboard, left then right.
    pub fn names(&self) -> [String; 2] {
        match self.me {
            0 => ["YOU".into(), "GUEST".into()],
            _ => ["HOST".into(), "YOU".into()],
        }
    }

    /// The other side as a versus opponent.
    pub fn into_opponent(self) -> Opponent {
        Opponent::Net(Box::new(self.link))
    }
}

/// Makes the match for `role`, waiting as long as that takes: a host until a guest comes
/// (binding `port` on all interfaces), a joiner until it is connected or refused (each of
/// its connect and hello waits at most [`nestris_versus::net::HANDSHAKE_TIMEOUT`]).
pub fn connect(role: &NetRole, setup: &MatchSetup) -> Result<NetMatch, NetError> {
    match role {
        NetRole::Host(port) => host_on(bind(*port)?, setup),
        NetRole::Join(addr) => join(addr),
    }
}

fn bind(port: u16) -> Result<TcpListener, NetError> {
    Ok(TcpListener::bind(("0.0.0.0", port))?)
}

fn host_on(listener: TcpListener, setup: &MatchSetup) -> Result<NetMatch, NetError> {
    let link = nestris_versus::net::host_on(listener, setup)?;
    Ok(NetMatch {
        link,
        setup: *setup,
        me: 0,
    })
}

fn join(addr: &JoinAddress) -> Result<NetMatch, NetError> {
    let (link, setup) = nestris_versus::net::join(&addr.to_string())?;
    Ok(NetMatch { link, setup, me: 1 })
}

/// A [`NetError`] as one line for the screen: upper case, without the system's error
/// number.
pub fn error_line(e: &NetError) -> String {
    let text = e.to_string();
    let text = match text.find(" (os error") {
        Some(i) => &text[..i],
        None => &text,
    };
    text.trim_start_matches("network: ").to_uppercase()
}

/// [`connect`] on a thread of its own: the window polls it each frame and may cancel.
#[derive(Debug)]
pub struct Connecting {
    role: NetRole,
    done: Receiver<Result<NetMatch, NetError>>,
    /// A host's own port on this machine: connecting to it once wakes the waiting accept
    /// so that a cancel frees the port.
    wake: Option<SocketAddr>,
}

impl Connecting {
    /// Starts connecting. A host binds its port here, so a port in use is refused at once.
    pub fn start(role: NetRole, setup: MatchSetup) -> Result<Connecting, NetError> {
        let (tx, done) = channel();
        let wake = match &role {
            NetRole::Host(port) => {
                let listener = bind(*port)?;
                let port = listener.local_addr()?.port();
                std::thread::spawn(move || {
                    let _ = tx.send(host_on(listener, &setup));
                });
                Some(SocketAddr::from(([127, 0, 0, 1], port)))
            }
            NetRole::Join(addr) => {
                let addr = addr.clone();
                std::thread::spawn(move || {
                    let _ = tx.send(join(&addr));
                });
                None
            }
        };
        Ok(Connecting { role, done, wake })
    }

    /// What this side is doing.
    pub fn role(&self) -> &NetRole {
        &self.role
    }

    /// The port a host listens on (the system's choice when it was started on port 0).
    pub fn port(&self) -> Option<u16> {
        self.wake.map(|a| a.port())
    }

    /// The match once connected, the reason once refused; `None` while still waiting.
    pub fn poll(&mut self) -> Option<Result<NetMatch, NetError>> {
        match self.done.try_recv() {
            Ok(r) => Some(r),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(NetError::Io(std::io::Error::other(
                "the connecting thread stopped",
            )))),
        }
    }

    /// Gives up. A waiting host stops listening (its thread is woken by a connection of
    /// our own, which it refuses, and ends); a joiner's thread ends within its timeouts,
    /// and a match it makes meanwhile is dropped, which the host sees as a closed link.
    pub fn cancel(self) {
        if let Some(addr) = self.wake {
            // Refused means the thread is already done with the listener.
            let _ = TcpStream::connect_timeout(&addr, Duration::from_secs(1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::Region;
    use std::time::Instant;

    fn setup() -> MatchSetup {
        MatchSetup {
            region: Region::Ntsc,
            level: 18,
            seed: 0xC0FFEE,
            best_of: 3,
        }
    }

    #[test]
    fn addresses_are_read_or_refused_with_a_reason() {
        let a = |host: &str, port| JoinAddress {
            host: host.into(),
            port,
        };
        assert_eq!(parse_address("127.0.0.1:7301"), Ok(a("127.0.0.1", 7301)));
        assert_eq!(
            parse_address(" Tetris-Box.lan:80 "),
            Ok(a("tetris-box.lan", 80))
        );
        assert_eq!(parse_address("localhost"), Ok(a("localhost", DEFAULT_PORT)));
        assert_eq!(parse_address("[::1]:9000"), Ok(a("[::1]", 9000)));
        assert_eq!(parse_address("[::1]"), Ok(a("[::1]", DEFAULT_PORT)));
        assert_eq!(
            parse_address("[::1]:9000").unwrap().to_string(),
            "[::1]:9000"
        );
        assert_eq!(parse_address(""), Err(AddressError::Empty));
        assert_eq!(parse_address(":7300"), Err(AddressError::NoHost));
        assert_eq!(parse_address("[]:7300"), Err(AddressError::NoHost));
        assert_eq!(
            parse_address("host:0"),
            Err(AddressError::BadPort("0".into()))
        );
        assert_eq!(
            parse_address("host:65536"),
            Err(AddressError::BadPort("65536".into()))
        );
        assert_eq!(
            parse_address("host:"),
            Err(AddressError::BadPort(String::new()))
        );
        assert_eq!(
            parse_address("host:+80"),
            Err(AddressError::BadPort("+80".into()))
        );
        assert_eq!(
            parse_address("a:b:7300"),
            Err(AddressError::BadCharacter(':'))
        );
        assert_eq!(
            parse_address("my host:7300"),
            Err(AddressError::BadCharacter(' '))
        );
        assert_eq!(parse_address("[::1"), Err(AddressError::BadCharacter('[')));
        assert_eq!(
            parse_address("[::g]:1"),
            Err(AddressError::BadCharacter('g'))
        );
        assert_eq!(
            parse_address("[::1]7300"),
            Err(AddressError::BadPort("7300".into()))
        );
        assert_eq!(parse_address(&"a".repeat(65)), Err(AddressError::TooLong));
        // A host as long as a whole address has no room left for its port.
        assert_eq!(parse_address(&"a".repeat(64)), Err(AddressError::TooLong));
        let longest = format!("{}:1", "a".repeat(MAX_HOST));
        let a = parse_address(&longest).unwrap();
        assert_eq!(parse_address(&a.to_string()), Ok(a));
        assert_eq!(
            parse_address("h\u{7f}").unwrap_err().to_string(),
            "a sign is not in an address"
        );
        // Every refusal says why, on one line.
        let e = parse_address("host:99999").unwrap_err().to_string();
        assert_eq!(e, "the port is 1 to 65535");
        let longest = [
            AddressError::Empty,
            AddressError::TooLong,
            AddressError::BadPort(String::new()),
            AddressError::NoHost,
            AddressError::BadCharacter('x'),
        ]
        .map(|e| e.to_string().len());
        assert!(longest.iter().all(|&n| n <= 28), "{longest:?}");
        assert_eq!(parse_port("7300"), Ok(7300));
        assert!(parse_port("0").is_err() && parse_port("x").is_err() && parse_port("").is_err());
    }

    /// Polls until `c` has an answer (the other side is on this machine: at most the
    /// handshake's timeout).
    fn answer(c: &mut Connecting) -> Result<NetMatch, NetError> {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(r) = c.poll() {
                return r;
            }
            assert!(Instant::now() < deadline, "no answer");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn a_host_and_a_joiner_connect_in_the_background_on_loopback() {
        let mut host = Connecting::start(NetRole::Host(0), setup()).unwrap();
        assert!(host.poll().is_none(), "nobody has joined");
        let port = host.port().unwrap();
        let mut guest = Connecting::start(
            NetRole::Join(parse_address(&format!("127.0.0.1:{port}")).unwrap()),
            // A joiner's own setup is not the match's.
            MatchSetup {
                level: 0,
                ..setup()
            },
        )
        .unwrap();
        let h = answer(&mut host).unwrap();
        let g = answer(&mut guest).unwrap();
        assert_eq!((h.me, g.me), (0, 1));
        assert_eq!(g.setup, setup(), "the joiner plays the host's match");
        assert_eq!(h.names(), ["YOU".to_string(), "GUEST".to_string()]);
        assert_eq!(g.names(), ["HOST".to_string(), "YOU".to_string()]);
    }

    #[test]
    fn a_cancelled_host_frees_its_port() {
        let host = Connecting::start(NetRole::Host(0), setup()).unwrap();
        let port = host.port().unwrap();
        // While it waits, the port is taken.
        assert!(Connecting::start(NetRole::Host(port), setup()).is_err());
        host.cancel();
        let deadline = Instant::now() + Duration::from_secs(30);
        let again = loop {
            match Connecting::start(NetRole::Host(port), setup()) {
                Ok(c) => break c,
                Err(e) => assert!(Instant::now() < deadline, "the port stays taken: {e}"),
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        again.cancel();
    }

    #[test]
    fn a_refused_join_says_so_in_one_line() {
        // A port that was free a moment ago: nobody listens there.
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let role = NetRole::Join(parse_address(&format!("127.0.0.1:{port}")).unwrap());
        assert_eq!(role.waiting_lines()[1], format!("127.0.0.1:{port}"));
        let mut c = Connecting::start(role, setup()).unwrap();
        let e = answer(&mut c).unwrap_err();
        let line = error_line(&e);
        assert!(line.contains("REFUSED"), "{line}");
        assert!(!line.contains("OS ERROR") && !line.contains('\n'), "{line}");
    }
}
