"""A live camera over HTTP, as a phone's IP-camera app serves one: an MJPEG stream.

For the tests and benches, and for trying `tablescan watch` or `serve --dealing hand`
without a camera: each connection gets the next batch of JPEG frames, then the stream
drops, as when the camera is pulled out; a connection with no batch left gets no frame.
"""

from __future__ import annotations

import socketserver
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler


class _Stream(BaseHTTPRequestHandler):
    batches: list[Sequence[bytes]]

    def do_GET(self) -> None:
        jpegs = self.batches.pop(0) if self.batches else []
        self.send_response(200)
        self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
        self.end_headers()
        for jpeg in jpegs:
            self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                             + str(len(jpeg)).encode() + b"\r\n\r\n" + jpeg + b"\r\n")

    def log_message(self, *args: object) -> None:
        pass  # a camera does not log its viewers


@contextmanager
def streaming(*batches: Sequence[bytes]) -> Iterator[str]:
    """Serve the batches, one a connection, on a free port of 127.0.0.1; yields the URL."""
    handler = type("Stream", (_Stream,), {"batches": list(batches)})
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/camera.mjpg"
    finally:
        server.shutdown()
        server.server_close()
