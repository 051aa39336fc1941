"""The receiver scripts/hook-receiver starts: see there."""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook

folder = sys.argv[1]
lock = threading.Lock()


def next_answer():
    """The first line of `answers`, taken off it; nil once they are spent."""
    with lock:
        with open(f"{folder}/answers") as file:
            lines = [line.strip() for line in file if line.strip()]
        if not lines:
            return None
        with open(f"{folder}/answers.tmp", "w") as file:
            file.write("".join(line + "\n" for line in lines[1:]))
        os.replace(f"{folder}/answers.tmp", f"{folder}/answers")
        return lines[0]


def verified(body, headers):
    with open(f"{folder}/secrets") as file:
        secrets = [line.strip() for line in file if line.strip()]
    for secret in secrets:
        try:
            Webhook(secret).verify(body, headers)
            return True
        except Exception:
            continue
    return False


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        headers = {name.lower(): value for name, value in self.headers.items()}
        answer = next_answer() or "204"
        entry = {"path": self.path, "id": headers.get("webhook-id"), "timestamp": headers.get("webhook-timestamp"),
                 "signatures": headers.get("webhook-signature", "").split(" "), "body": body.decode("utf-8", "replace"),
                 "verified": verified(body, headers), "answer": answer, "at": time.time()}
        with lock, open(f"{folder}/received.jsonl", "a") as log:
            log.write(json.dumps(entry) + "\n")
        if answer == "hang":
            time.sleep(3600)
            return
        status, _, extra = answer.partition(" ")
        self.send_response(int(status))
        if extra.startswith("retry-after="):
            self.send_header("Retry-After", extra.split("=", 1)[1])
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *_):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
server.daemon_threads = True
with open(f"{folder}/url.tmp", "w") as file:
    file.write(f"http://127.0.0.1:{server.server_address[1]}")
os.replace(f"{folder}/url.tmp", f"{folder}/url")
server.serve_forever()
