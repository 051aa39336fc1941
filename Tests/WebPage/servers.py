"""The real `shared` (the release build), and nginx in front of it from the repository's sub-path site file, for
the web page's tests."""
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("SHARED_BIN", os.path.join(ROOT, ".build", "release", "shared"))
SHARE = os.path.join(os.path.dirname(SHARED), "share")


def wait_until(what, seconds, condition):
    """Returns what `condition` returns once it is true, checking every 0.1 s for at most `seconds`; past that, raises
    naming `what`. The servers' starts are waited for through this, never for a length of time."""
    deadline = time.time() + seconds
    while True:
        found = condition()
        if found:
            return found
        if time.time() > deadline:
            raise RuntimeError(f"not within {seconds} s: {what}")
        time.sleep(0.1)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Shared:
    """`shared` on a free port (or a unix socket) with a temporary database; stopped by `stop`."""

    def __init__(self, base_path="/", tokens=(), socket_path=None, users=None, auth="", server=""):
        """`users` maps each user to their token ([auth.users]); `auth` and `server` are more of the [auth] and
        [server] tables, as TOML."""
        self.folder = tempfile.mkdtemp(prefix="share-web-")
        self.tokens = list(tokens) + list((users or {}).values())
        users_table = "".join(f"{user} = {json.dumps(secret)}\n" for user, secret in (users or {}).items())
        listen = f"unix:{socket_path}" if socket_path else "127.0.0.1:0"
        with open(os.path.join(self.folder, "share.toml"), "w") as config:
            config.write(f'[server]\nlisten = "{listen}"\nbase_path = "{base_path}"\n{server}'
                         f'[database]\npath = "share.db"\n[auth]\ntokens = {json.dumps(list(tokens))}\n{auth}'
                         f'[auth.users]\n{users_table}')
        self.log_path = os.path.join(self.folder, "shared.log")
        self.start()
        prefix = "" if base_path == "/" else base_path
        self.url = f"http://{self.address}{prefix}" if not socket_path else None

    def start(self, listen=None):
        """Starts the daemon (`listen`: on that address, as the config file's is replaced) and waits until it serves."""
        config = os.path.join(self.folder, "share.toml")
        if listen:
            with open(config) as file:
                text = re.sub(r'listen = "[^"]*"', f'listen = "{listen}"', file.read(), count=1)
            with open(config, "w") as file:
                file.write(text)
        self.process = subprocess.Popen([SHARED, "--config", config], stdout=open(self.log_path, "w"), stderr=subprocess.STDOUT)

        def serving():
            if self.process.poll() is not None:
                raise RuntimeError("shared stopped while starting: " + open(self.log_path).read())
            match = re.search(r"serving on (\S+)", open(self.log_path).read())
            return match and match.group(1)

        self.address = wait_until("shared serving (its log: " + self.log_path + ")", 30, serving)

    def pause(self):
        """Stops the daemon, keeping its database: `resume` starts it again on the same address."""
        self.process.terminate()
        self.process.wait()

    def resume(self):
        self.start(listen=self.address)

    def request(self, method, path, body=None, content_type="application/json", token=None):
        """A request straight to the daemon (with `token`, else the first configured); returns (status, headers, body bytes)."""
        headers = {"Content-Type": content_type}
        if token or self.tokens:
            headers["Authorization"] = f"Bearer {token or self.tokens[0]}"
        data = body.encode() if isinstance(body, str) else body
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def add_file(self, path, *options):
        """Shares the file at `path` with the real `share add` (`options` after it); returns the record."""
        environment = {**os.environ, "SHARE_SERVER": self.url, "SHARE_TOKEN": self.tokens[0] if self.tokens else ""}
        run = subprocess.run([SHARE, "add", "--json", path, *options], capture_output=True, text=True, env=environment, timeout=60)
        assert run.returncode == 0, run.stderr
        return json.loads(run.stdout)

    def import_records(self, records, token=None):
        lines = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
        status, _, body = self.request("POST", "/share/import", lines, "application/x-ndjson", token)
        assert status == 200, body

    def stop(self):
        self.process.terminate()
        self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


class Nginx:
    """nginx serving the repository's sub-path site (deploy/nginx/share-subpath.conf) on a free port, in front
    of a `shared` listening on the site's unix socket."""

    def __init__(self, socket_path):
        self.folder = tempfile.mkdtemp(prefix="share-nginx-")
        self.port = free_port()
        site = open(os.path.join(ROOT, "deploy", "nginx", "share-subpath.conf")).read()
        site = site.replace("listen 80;", f"listen 127.0.0.1:{self.port};").replace("/run/share/shared.sock", socket_path)
        temp = "\n".join(f"{name}_temp_path {self.folder}/{name};" for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        user = "user root;" if os.getuid() == 0 else ""
        with open(os.path.join(self.folder, "nginx.conf"), "w") as config:
            config.write(f"daemon off; {user} pid {self.folder}/nginx.pid; error_log {self.folder}/error.log;\n"
                         f"events {{}}\nhttp {{ access_log off; {temp}\n{site}\n}}\n")
        self.process = subprocess.Popen(["/usr/sbin/nginx", "-p", self.folder, "-c", f"{self.folder}/nginx.conf"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)

        def answering():
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return True
            except OSError:
                return False

        wait_until(f"nginx answering on port {self.port}", 20, answering)
        self.url = f"http://127.0.0.1:{self.port}/files"

    def stop(self):
        self.process.terminate()
        self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)
