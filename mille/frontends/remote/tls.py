"""TLS for a remote seat and its host: the contexts made from the
certificate and key files named on the command line, and a file that
cannot be used named in one line (:class:`CertError`)."""

from __future__ import annotations

from ...engine.text import escape

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ssl


TLS_WORDS = {  # OpenSSL's reasons, in words
    None: "not a certificate and its key in PEM form",
    "PEM_LIB": "not a certificate and its key in PEM form",
    "NO_CERTIFICATE_OR_CRL_FOUND": "no certificate in it (PEM form)",
    "KEY_VALUES_MISMATCH": "the key is not the certificate's",
}


def _tls_words(exc: OSError) -> str:
    reason = getattr(exc, "reason", None)
    return TLS_WORDS.get(reason, str(reason))


class CertError(ValueError):
    """A certificate or key that cannot be used (the message names it)."""


def _readable(path: str, what: str) -> None:
    """``CertError`` naming ``path`` if it cannot be read."""
    try:
        with open(path, "rb"):
            pass
    except OSError as exc:
        raise CertError(f"cannot read the {what} {escape(path)}: {exc.strerror or exc}") from None


def client_tls(cert: str | None) -> ssl.SSLContext | None:
    """TLS trusting ``cert`` (the host's certificate), or None;
    ``CertError`` if it cannot be used."""
    if cert is None:
        return None
    import ssl

    _readable(cert, "certificate")
    try:
        context = ssl.create_default_context(cafile=cert)
    except ssl.SSLError as exc:
        raise CertError(f"cannot use the certificate {escape(cert)}: {_tls_words(exc)}") from None
    context.check_hostname = False  # the certificate itself is the trust
    return context


def server_tls(cert: str, key: str) -> ssl.SSLContext:
    """TLS with ``cert`` and ``key``; ``CertError`` if they cannot be used."""
    import ssl

    _readable(cert, "certificate")
    _readable(key, "key")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(cert, key)
    except (ssl.SSLError, OSError) as exc:
        reason = _tls_words(exc) if isinstance(exc, ssl.SSLError) else exc.strerror or str(exc)
        raise CertError(
            f"cannot use the certificate {escape(cert)} with the key {escape(key)}: {reason}"
        ) from None
    return context


def fingerprint(cert: str) -> str:
    """The SHA-256 of the first certificate in the PEM file ``cert``, as
    ``AB:CD:...`` (what a friend reads out over the phone to check the
    table); "" if it cannot be read."""
    import hashlib
    import ssl

    try:
        with open(cert, encoding="ascii", errors="replace") as file:
            text = file.read(1 << 20)
        begin, end = "-----BEGIN CERTIFICATE-----", "-----END CERTIFICATE-----"
        start = text.index(begin)
        der = ssl.PEM_cert_to_DER_cert(text[start : text.index(end, start) + len(end)] + "\n")
    except (OSError, ValueError):
        return ""
    return ":".join(f"{byte:02X}" for byte in hashlib.sha256(der).digest())
