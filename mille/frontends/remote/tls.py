"""TLS for a remote seat and its host: the contexts made from the
certificate and key files named on the command line, and a file that
cannot be used named in one line (:class:`CertError`)."""

from __future__ import annotations

from ...engine.text import escape
from ...i18n import N_, _

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ssl


TLS_WORDS = {  # OpenSSL's reasons, in words
    None: N_("not a certificate and its key in PEM form"),
    "PEM_LIB": N_("not a certificate and its key in PEM form"),
    "NO_CERTIFICATE_OR_CRL_FOUND": N_("no certificate in it (PEM form)"),
    "KEY_VALUES_MISMATCH": N_("the key is not the certificate's"),
}


def _tls_words(exc: OSError) -> str:
    reason = getattr(exc, "reason", None)
    return _(TLS_WORDS[reason]) if reason in TLS_WORDS else str(reason)


class CertError(ValueError):
    """A certificate or key that cannot be used (the message names it)."""


def _readable(path: str, what: str) -> None:
    """``CertError`` naming ``path`` if it cannot be read (``what``: the
    certificate, the key)."""
    try:
        with open(path, "rb"):
            pass
    except OSError as exc:
        why = exc.strerror or exc
        if what == "key":
            line = _("cannot read the key {path}: {why}")
        else:
            line = _("cannot read the certificate {path}: {why}")
        raise CertError(line.format(path=escape(path), why=why)) from None


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
        raise CertError(
            _("cannot use the certificate {cert}: {why}").format(
                cert=escape(cert), why=_tls_words(exc)
            )
        ) from None
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
            _("cannot use the certificate {cert} with the key {key}: {why}").format(
                cert=escape(cert), key=escape(key), why=reason
            )
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
