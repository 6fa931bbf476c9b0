//! Reading back the Python `repr` text a task's stored error is kept as
//! (`Error::repr`): what the bindings show of a stored error, and what a
//! resumed error handler is given.

use super::Error;

impl Error {
    /// The node failure a stored `repr` text describes (`Error('it\\'s
    /// broken')` is an `Error` with that message); a text of another form
    /// is the message of an `Error`.
    pub fn from_repr(repr: &str) -> Error {
        let parsed = repr.split_once('(').and_then(|(name, rest)| {
            let literal = rest.strip_suffix(')')?;
            let valid =
                !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
            valid.then(|| Some((name, py_string(literal)?)))?
        });
        let (name, message) = parsed.unwrap_or(("Error", repr.to_owned()));
        Error::node_failure(name, message)
    }
}

/// The text of a Python string literal (`'...'` or `"..."`, as `repr` writes
/// one); `None` when it is not one.
fn py_string(literal: &str) -> Option<String> {
    let quote = literal.chars().next().filter(|q| *q == '\'' || *q == '"')?;
    let inner = literal.strip_prefix(quote)?.strip_suffix(quote)?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'x' => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            'u' => {
                let hex: String = chars.by_ref().take(4).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            'U' => {
                let hex: String = chars.by_ref().take(8).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            other => out.push(other),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repr_reads_back_as_the_error_it_was_written_from() {
        let e = Error::node_failure("ValueError", "it's\nbroken");
        let back = Error::from_repr(&e.repr());
        assert_eq!(
            (back.name(), back.message()),
            ("ValueError", "it's\nbroken")
        );
        let odd = Error::from_repr("odd text");
        assert_eq!((odd.name(), odd.message()), ("Error", "odd text"));
    }
}
