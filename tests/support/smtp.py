"""A small SMTP server on 127.0.0.1, in a thread of the test process, that can be told to
accept mail, hang (take the connection and never say a word) or refuse (answer every
connection 421, as a server shedding load does). What it accepted is in `received`."""

import email
import socketserver
import threading
from email.message import Message

ACCEPT, HANG, REFUSE = "accept", "hang", "refuse"


class _Session(socketserver.StreamRequestHandler):
    timeout = 30  # a client that goes quiet is dropped, so the test's end is not held up

    def handle(self):
        server: SMTPServer = self.server  # type: ignore[assignment]
        mode = server.mode
        server.connections += 1
        if mode == HANG:
            server.closing.wait()  # holds the connection open, silent, until the server stops
            return
        if mode == REFUSE:
            self.say("421 127.0.0.1 busy, try again later")
            return
        self.say("220 127.0.0.1 test SMTP")
        while line := self.rfile.readline():
            verb = line.decode("ascii", "replace").strip().split(" ")[0].upper()
            if verb == "DATA":
                self.say("354 end with <CRLF>.<CRLF>")
                server.take(self.read_data())
                self.say("250 queued")
            elif verb == "QUIT":
                self.say("221 bye")
                return
            elif verb in ("EHLO", "HELO", "MAIL", "RCPT", "RSET", "NOOP"):
                self.say("250 ok")
            else:
                self.say("502 not here")

    def say(self, reply: str) -> None:
        self.wfile.write(reply.encode() + b"\r\n")

    def read_data(self) -> bytes:
        lines = []
        while (line := self.rfile.readline()) not in (b".\r\n", b""):
            lines.append(line[1:] if line.startswith(b"..") else line)
        return b"".join(lines)


class SMTPServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, mode: str = ACCEPT):
        super().__init__(("127.0.0.1", 0), _Session)
        self.mode = mode
        self.connections = 0
        self.received: list[Message] = []
        self.closing = threading.Event()
        self._lock = threading.Lock()

    @property
    def port(self) -> int:
        return self.server_address[1]

    def take(self, data: bytes) -> None:
        with self._lock:
            self.received.append(email.message_from_bytes(data))

    def __enter__(self):
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.closing.set()
        self.shutdown()
        self.server_close()


def smtp_at(settings, port: int, timeout: float = 1) -> None:
    """Production's SMTP backend, aimed at `port` of 127.0.0.1, waiting `timeout` seconds
    at most for each answer."""
    smtp = {"host": "127.0.0.1", "port": port, "timeout": timeout}
    settings.MAILERS = {
        "default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend", "OPTIONS": smtp}
    }


def smtp_environment(port: int, timeout: float) -> dict[str, str]:
    """The same for a `manage.py` process: its environment variables."""
    return {
        "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "DJANGO_EMAIL_HOST": "127.0.0.1",
        "DJANGO_EMAIL_PORT": str(port),
        "FAIRSHEET_MAIL_TIMEOUT": str(timeout),
    }
