"""What the remote-trace tests share: the range server in a thread, the source tool, Azurite."""
import base64
import email.utils
import hashlib
import hmac
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import range_server  # noqa: E402

# What a remote trace's open asks for (src/format/source_http.c's NTX_HTTP_FIRST): the head, and a V4 trace's
# first metadata blocks.
HEAD = 576 * 1024
HEAD_RANGE = "bytes=0-%d" % (HEAD - 1)

# Azurite's well-known development account (documented by Microsoft; not a secret).
AZ_ACCOUNT = "devstoreaccount1"
AZ_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
AZ_VERSION = "2021-08-06"


class HttpServer:
    """The range server on a loopback port, serving `root`."""

    def __init__(self, root):
        self.srv = range_server.serve(root)
        self.base = "http://127.0.0.1:%d" % self.srv.server_port

    def _post(self, what, body=b""):
        req = urllib.request.Request(self.base + "/_ctl/" + what, method="POST", data=body)
        urllib.request.urlopen(req).read()

    def log(self):
        """The file requests since the last reset."""
        with urllib.request.urlopen(self.base + "/_ctl/log") as r:
            return json.loads(r.read())

    def reset(self):
        self._post("reset")

    def fault(self, **f):
        """The next f["count"] requests get fault f["kind"] (range_server.py)."""
        self._post("fault", json.dumps(f).encode())

    def close(self):
        self.srv.shutdown()
        self.srv.server_close()


def run_tool(tool, args, env=None, check=True):
    """Run source_tool; returns (json or None, stderr, returncode)."""
    e = dict(os.environ)
    e.setdefault("NTIDX_HTTP_RETRY_MS", "5")
    if env:
        e.update(env)
    p = subprocess.run([tool] + args, capture_output=True, text=True, env=e, timeout=120)
    if check and p.returncode != 0:
        raise AssertionError("source_tool %s failed (%d): %s" % (" ".join(args), p.returncode, p.stderr))
    return (json.loads(p.stdout) if p.returncode == 0 else None), p.stderr, p.returncode


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Azurite:
    """Azurite's blob service on a loopback port, its data in a temporary folder; stopped by close()."""

    def __init__(self, source_root):
        exe = os.path.join(source_root, "tests", "remote", "azurite", "node_modules", ".bin", "azurite-blob")
        if not os.path.exists(exe):
            install = os.path.join(source_root, "tests", "remote", "azurite", "install.sh")
            if not os.path.exists(install) or subprocess.run([install]).returncode != 0 or not os.path.exists(exe):
                # a failure, not a skip: the remote tests need Azurite (tools/setup-deps.sh installs it)
                raise RuntimeError("azurite is not installed and %s failed: run tools/setup-deps.sh" % install)
        self.dir = tempfile.mkdtemp(prefix="ntidx-azurite-")
        self.proc = None
        # The port is chosen free, but another process may take it before Azurite binds it: start again on
        # another port when Azurite exits early. Generous deadline: Azurite starts in 5-15 s on a loaded machine.
        err = ""
        for _attempt in range(3):
            self.port = free_port()
            self.proc = subprocess.Popen([exe, "--blobHost", "127.0.0.1", "--blobPort", str(self.port),
                                          "--location", self.dir, "--silent", "--skipApiVersionCheck",
                                          "--disableProductStyleUrl"],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            if self._wait_listening(deadline=time.time() + 120):
                break
            err = self.proc.stderr.read().decode(errors="replace") if self.proc.poll() is not None else "timed out"
            self._stop()
        else:
            self.close()
            raise RuntimeError("azurite did not start: " + err)
        self.endpoint = "http://127.0.0.1:%d/%s" % (self.port, AZ_ACCOUNT)
        self.conn = ("DefaultEndpointsProtocol=http;AccountName=%s;AccountKey=%s;BlobEndpoint=%s;"
                     % (AZ_ACCOUNT, AZ_KEY, self.endpoint))

    def _wait_listening(self, deadline):
        """True once this Azurite accepts connections; False if it exited or the deadline passed."""
        while time.time() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self.proc.poll() is None  # not another process's port: ours is still running
            except OSError:
                time.sleep(0.1)
        return False

    def _stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def close(self):
        self._stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    # An independent Shared Key client (Python's hmac), for what the tests set up.
    def request(self, method, path, query="", body=b"", headers=None):
        h = {"x-ms-date": email.utils.formatdate(usegmt=True), "x-ms-version": AZ_VERSION,
             "Content-Type": "application/octet-stream"}  # else urllib sends a form's type, unsigned
        h.update(headers or {})
        length = str(len(body)) if body else ""
        ctype = h.get("Content-Type", "")
        canon_headers = "".join("%s:%s\n" % (k, h[k]) for k in sorted(h) if k.startswith("x-ms-"))
        resource = "/%s/%s/%s" % (AZ_ACCOUNT, AZ_ACCOUNT, path)
        for kv in sorted(q for q in query.split("&") if q):
            k, v = kv.split("=", 1)
            resource += "\n%s:%s" % (k, v)
        sts = "%s\n\n\n%s\n\n%s\n\n\n\n\n\n\n%s%s" % (method, length, ctype, canon_headers, resource)
        sig = base64.b64encode(hmac.new(base64.b64decode(AZ_KEY), sts.encode(), hashlib.sha256).digest()).decode()
        h["Authorization"] = "SharedKey %s:%s" % (AZ_ACCOUNT, sig)
        url = "%s/%s%s" % (self.endpoint, path, "?" + query if query else "")
        req = urllib.request.Request(url, data=body if method == "PUT" else None, method=method, headers=h)
        with urllib.request.urlopen(req) as r:
            return r.status

    def create_container(self, name, public=False):
        return self.request("PUT", name, "restype=container",
                            headers={"x-ms-blob-public-access": "blob"} if public else None)

    def put_blob(self, container, blob, data):
        return self.request("PUT", "%s/%s" % (container, blob), body=data,
                            headers={"x-ms-blob-type": "BlockBlob", "Content-Type": "application/octet-stream"})

    def account_sas(self, permissions="rl", expiry="2099-01-01T00:00:00Z"):
        """An account SAS (sv 2021-08-06) for the blob service."""
        fields = [AZ_ACCOUNT, permissions, "b", "sco", "", expiry, "", "", AZ_VERSION, ""]
        sts = "\n".join(fields) + "\n"
        sig = base64.b64encode(hmac.new(base64.b64decode(AZ_KEY), sts.encode(), hashlib.sha256).digest()).decode()
        return urllib.parse.urlencode({"sv": AZ_VERSION, "ss": "b", "srt": "sco", "sp": permissions, "se": expiry,
                                       "sig": sig})

