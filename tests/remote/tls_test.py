#!/usr/bin/env python3
"""A trace served over HTTPS with a certificate of a CA made here (issue 27: "TLS certificates are verified by
default"): refused by default, with an error that names the URL (not its query string) and says the certificate
could not be verified; read, with the answers of the same trace on disk, once the CA is given as the curl command
takes it (CURL_CA_BUNDLE, SSL_CERT_FILE, SSL_CERT_DIR); refused again for a host name the certificate does not
name, or another CA.

The CA and the server's certificate are made at test time with the openssl command (Debian's openssl, which
ca-certificates depends on; tools/setup-deps.sh installs it), else with Python's cryptography.

Usage: tls_test.py NTIDX
"""
import datetime
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import range_server  # noqa: E402

NTIDX = None
CA_VARS = ("CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR")


def make_ca_and_server_cert(d, name):
    """A CA (d/NAME-ca.pem) and a certificate it signs for 127.0.0.1 (d/NAME-cert.pem, d/NAME-key.pem)."""
    ca_key, ca, key, csr, cert = (os.path.join(d, name + s) for s in ("-ca-key.pem", "-ca.pem", "-key.pem",
                                                                        "-csr.pem", "-cert.pem"))
    if shutil.which("openssl"):
        ext = os.path.join(d, name + "-ext.cnf")
        with open(ext, "w") as f:
            f.write("subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n")
        ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        for cmd in (["req", "-x509"] + ec + ["-keyout", ca_key, "-out", ca, "-days", "2", "-subj",
                                             "/CN=ntidx test CA " + name],
                    ["req", "-new"] + ec + ["-keyout", key, "-out", csr, "-subj", "/CN=127.0.0.1"],
                    ["x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-out", cert,
                     "-days", "2", "-extfile", ext]):
            subprocess.run(["openssl"] + cmd, check=True, capture_output=True)
        return ca, cert, key
    try:
        import ipaddress
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec as ecc
        from cryptography.x509.oid import NameOID
    except ImportError as e:  # a failure, not a skip: the test needs one of the two
        raise RuntimeError("neither the openssl command nor Python's cryptography (%s): run tools/setup-deps.sh" % e)
    now = datetime.datetime.now(datetime.timezone.utc)

    def build(subject, issuer, pub, signer, ca_ext):
        b = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(pub)
             .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
             .not_valid_after(now + datetime.timedelta(days=2))
             .add_extension(x509.BasicConstraints(ca=ca_ext, path_length=None), critical=True))
        if not ca_ext:
            b = b.add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                                critical=False)
        return b.sign(signer, hashes.SHA256())

    ck, sk = ecc.generate_private_key(ecc.SECP256R1()), ecc.generate_private_key(ecc.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "ntidx test CA " + name)])
    ca_cert = build(ca_name, ca_name, ck.public_key(), ck, True)
    srv_cert = build(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]), ca_name, sk.public_key(),
                     ck, False)
    with open(ca, "wb") as f:
        f.write(ca_cert.public_bytes(serialization.Encoding.PEM))
    with open(cert, "wb") as f:
        f.write(srv_cert.public_bytes(serialization.Encoding.PEM))
    with open(key, "wb") as f:
        f.write(sk.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption()))
    return ca, cert, key


class Tls(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="ntidx-tls-")
        cls.srv = None
        try:
            srvdir = os.path.join(cls.dir, "srv")
            os.mkdir(srvdir)
            cls.local = os.path.join(srvdir, "t.nettrace")
            subprocess.run([NTIDX, "gen", "-o", cls.local, "--size", "2M", "--seed", "27", "--quiet"], check=True)
            cls.ca, cert, key = make_ca_and_server_cert(cls.dir, "ours")
            cls.other_ca, _, _ = make_ca_and_server_cert(cls.dir, "other")
            cls.srv = range_server.serve(srvdir, tls=(cert, key))
            cls.port = cls.srv.server_port
            cls.url = "https://127.0.0.1:%d/t.nettrace" % cls.port
            # no CA from the caller's environment: the system's store only, as on a machine that knows nothing
            base = {k: v for k, v in os.environ.items() if k not in CA_VARS}
            cls.env = dict(base, NTIDX_HTTP_RETRY_MS="5", NTIDX_INDEX_DIR=os.path.join(cls.dir, "idx"))
            cls.lenv = dict(base, NTIDX_INDEX_DIR=os.path.join(cls.dir, "lidx"))
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        if cls.srv:
            cls.srv.shutdown()
            cls.srv.server_close()
        shutil.rmtree(cls.dir, ignore_errors=True)

    def ntidx(self, args, env):
        return subprocess.run([NTIDX] + args, capture_output=True, env=env, timeout=120)

    def stats(self, url, env):
        p = self.ntidx(["stats", url], env)
        return p.returncode, p.stdout.split(b"\n", 1)[-1], p.stderr.decode(errors="replace")  # past "file: NAME"

    def local_stats(self):
        p = self.ntidx(["stats", self.local], self.lenv)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout.split(b"\n", 1)[-1]

    def test_refused_by_default_naming_the_url_without_its_query(self):
        rc, out, err = self.stats(self.url + "?sv=2021&sig=SECRET", self.env)
        self.assertEqual(rc, 1, err)
        self.assertEqual(out.strip(), b"")
        self.assertIn(self.url + ": the server's TLS certificate could not be verified", err)
        self.assertIn("CURL_CA_BUNDLE", err)  # what to do about it
        self.assertNotIn("SECRET", err)
        self.assertNotIn("sig=", err)

    def test_read_with_the_ca_given_as_curl_takes_it(self):
        want = self.local_stats()
        rehashed = os.path.join(self.dir, "certs")  # SSL_CERT_DIR: a folder of CAs named by their hash
        os.makedirs(rehashed, exist_ok=True)
        h = subprocess.run(["openssl", "x509", "-hash", "-noout", "-in", self.ca], capture_output=True, text=True)
        if h.returncode == 0:
            shutil.copyfile(self.ca, os.path.join(rehashed, h.stdout.strip() + ".0"))
        givens = [{"CURL_CA_BUNDLE": self.ca}, {"SSL_CERT_FILE": self.ca}]
        if h.returncode == 0:
            givens.append({"SSL_CERT_DIR": rehashed})
        for given in givens:
            with self.subTest(given=list(given)):
                env = dict(self.env, **given)
                rc, out, err = self.stats(self.url, env)
                self.assertEqual(rc, 0, err)
                self.assertEqual(out, want)
                self.assertTrue(out)
                p = self.ntidx(["query", self.url, "--from", "5ms", "--to", "15ms", "--format", "jsonl"], env)
                q = self.ntidx(["query", self.local, "--from", "5ms", "--to", "15ms", "--format", "jsonl"],
                               self.lenv)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertEqual(p.stdout, q.stdout)

    def test_curl_ca_bundle_comes_first(self):
        # as the curl command: CURL_CA_BUNDLE, when set, is the bundle, whatever SSL_CERT_FILE says
        rc, _, err = self.stats(self.url, dict(self.env, CURL_CA_BUNDLE=self.other_ca, SSL_CERT_FILE=self.ca))
        self.assertEqual(rc, 1)
        self.assertIn("could not be verified", err)
        self.assertIn("CA certificates from " + self.other_ca, err)
        rc, _, err = self.stats(self.url, dict(self.env, CURL_CA_BUNDLE=self.ca, SSL_CERT_FILE=self.other_ca))
        self.assertEqual(rc, 0, err)

    def test_another_ca_or_another_host_name_is_refused(self):
        rc, _, err = self.stats(self.url, dict(self.env, CURL_CA_BUNDLE=self.other_ca))
        self.assertEqual(rc, 1)
        self.assertIn(self.url + ": the server's TLS certificate could not be verified", err)
        # the certificate names 127.0.0.1, not localhost: the name is checked too
        other_name = "https://localhost:%d/t.nettrace" % self.port
        rc, _, err = self.stats(other_name, dict(self.env, CURL_CA_BUNDLE=self.ca))
        self.assertEqual(rc, 1)
        self.assertIn(other_name + ": the server's TLS certificate could not be verified", err)

    def test_a_ca_file_that_cannot_be_read(self):
        missing = os.path.join(self.dir, "no-such-ca.pem")
        rc, _, err = self.stats(self.url, dict(self.env, CURL_CA_BUNDLE=missing))
        self.assertEqual(rc, 1)
        self.assertIn(self.url + ": the CA certificates to verify the server with cannot be read from " + missing, err)


if __name__ == "__main__":
    NTIDX = sys.argv[1]
    del sys.argv[1]
    unittest.main(verbosity=2)
