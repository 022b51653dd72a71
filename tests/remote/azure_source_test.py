#!/usr/bin/env python3
"""The Azure Blob source (src/format/source_azure.c) against Azurite, started here on a loopback port with
the emulator's well-known account: every way to name a blob and every kind of credential reads the same
bytes in the same few requests; an upload is a signed Put Blob; a blob overwritten while it is read is an
error; 403 and 404 name the blob without the SAS token.

Usage: azure_source_test.py SOURCE_TOOL SOURCE_ROOT
"""
import os
import random
import re
import shutil
import sys
import tempfile
import threading
import time
import unittest
import urllib.error

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from remote_common import AZ_ACCOUNT, AZ_KEY, HEAD, Azurite, run_tool  # noqa: E402

TOOL = ROOT = None
MiB = 1 << 20
NO_AZ_ENV = {k: "" for k in ("AZURE_STORAGE_CONNECTION_STRING", "AZURE_STORAGE_ACCOUNT", "AZURE_STORAGE_KEY",
                             "AZURE_STORAGE_SAS_TOKEN", "AZURE_STORAGE_SERVICE_ENDPOINT")}


class AzureSource(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.az = Azurite(ROOT)
        cls.dir = tempfile.mkdtemp(prefix="ntidx-az-")
        try:  # tearDownClass does not run when this fails: stop Azurite here
            rnd = random.Random(2727)
            cls.data = bytes(rnd.getrandbits(8) for _ in range(128 * 1024)) * 80  # 10 MiB
            cls.az.create_container("traces")
            cls.az.create_container("public", public=True)
            cls.az.put_blob("traces", "dir/t.bin", cls.data)
            cls.az.put_blob("public", "t.bin", cls.data[:300000])
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.az.close()
        shutil.rmtree(cls.dir, ignore_errors=True)

    def setUp(self):
        self.out = os.path.join(self.dir, "out")
        if os.path.exists(self.out):
            os.unlink(self.out)

    def got(self):
        with open(self.out, "rb") as f:
            return f.read()

    def env(self, **kw):
        e = dict(NO_AZ_ENV)
        e.update(kw)
        return e

    def read(self, name, env, *ops, check=True):
        return run_tool(TOOL, [name, self.out] + list(ops or ["read:0:%d" % len(self.data)]), env=env, check=check)

    def test_connection_string_names(self):
        env = self.env(AZURE_STORAGE_CONNECTION_STRING=self.az.conn)
        for name in ("az://traces/dir/t.bin", "az://%s/traces/dir/t.bin" % AZ_ACCOUNT,
                     self.az.endpoint + "/traces/dir/t.bin"):
            with self.subTest(name=name):
                self.setUp()
                info, _, _ = self.read(name, env, "read:%d:100" % (5 * MiB))
                self.assertEqual(self.got(), self.data[5 * MiB:5 * MiB + 100])
                self.assertEqual(info["size"], len(self.data))
                self.assertEqual(info["name"], self.az.endpoint + "/traces/dir/t.bin")
                self.assertTrue(info["etag"])
                self.assertEqual(info["requests"], 2)  # the open's head, then the range

    def test_account_and_key(self):
        env = self.env(AZURE_STORAGE_ACCOUNT=AZ_ACCOUNT, AZURE_STORAGE_KEY=AZ_KEY,
                       AZURE_STORAGE_SERVICE_ENDPOINT=self.az.endpoint)
        info, _, _ = self.read("az://traces/dir/t.bin", env, "prefetch:0:%d" % len(self.data),
                               "read:0:%d" % len(self.data))
        self.assertEqual(self.got(), self.data)
        self.assertEqual(info["requests"], 3)  # the head, then 8 MiB and the rest, in parallel
        self.assertEqual(info["bytes"], len(self.data))

    def test_wrong_key_is_403_without_secrets(self):
        bad = AZ_KEY[:10] + ("A" if AZ_KEY[10] != "A" else "B") + AZ_KEY[11:]
        env = self.env(AZURE_STORAGE_ACCOUNT=AZ_ACCOUNT, AZURE_STORAGE_KEY=bad,
                       AZURE_STORAGE_SERVICE_ENDPOINT=self.az.endpoint)
        _, err, rc = self.read("az://traces/dir/t.bin", env, check=False)
        self.assertEqual(rc, 1)
        self.assertIn("az://traces/dir/t.bin: bytes 0-%d: HTTP 403" % (HEAD - 1), err)
        self.assertIn("AuthorizationFailure", err)
        self.assertNotIn(bad, err)

    def test_sas_in_the_url(self):
        sas = self.az.account_sas()
        url = self.az.endpoint + "/traces/dir/t.bin?" + sas
        info, _, _ = self.read(url, self.env(), "read:1000:5000")
        self.assertEqual(self.got(), self.data[1000:6000])
        self.assertEqual(info["name"], self.az.endpoint + "/traces/dir/t.bin")
        # a SAS that grants nothing readable: 403, the token never printed
        bad = url.replace("sig=", "sig=X")
        _, err, rc = self.read(bad, self.env(), "read:0:1", check=False)
        self.assertEqual(rc, 1)
        self.assertIn(self.az.endpoint + "/traces/dir/t.bin: bytes 0-%d: HTTP 403" % (HEAD - 1), err)
        self.assertNotIn("sig=", err)
        self.assertNotIn(sas.split("sig=")[1][:12], err)

    def test_anonymous_public_container(self):
        info, _, _ = self.read(self.az.endpoint + "/public/t.bin", self.env(), "read:0:300000")
        self.assertEqual(self.got(), self.data[:300000])
        # a private container refuses anonymous reads
        _, err, rc = self.read(self.az.endpoint + "/traces/dir/t.bin", self.env(), "read:0:1", check=False)
        self.assertEqual(rc, 1)
        self.assertRegex(err, r": HTTP (403|404)")

    def test_missing_blob_is_404(self):
        env = self.env(AZURE_STORAGE_CONNECTION_STRING=self.az.conn)
        _, err, rc = self.read("az://traces/nope.bin", env, "read:0:1", check=False)
        self.assertEqual(rc, 1)
        self.assertIn("az://traces/nope.bin: bytes 0-%d: HTTP 404 (BlobNotFound)" % (HEAD - 1), err)
        self.assertIn("no such object", err)
        self.assertNotIn(AZ_KEY, err)

    def test_upload_is_a_signed_put_blob(self):
        env = self.env(AZURE_STORAGE_CONNECTION_STRING=self.az.conn)
        src = os.path.join(self.dir, "up")
        with open(src, "wb") as f:
            f.write(self.data[:12345])
        run_tool(TOOL, ["--put", "az://traces/dir/t.bin.ntidx", src], env=env)
        info, _, _ = self.read("az://traces/dir/t.bin.ntidx", env, "read:0:12345")
        self.assertEqual(self.got(), self.data[:12345])
        self.assertEqual(info["size"], 12345)

    def test_overwritten_while_read_is_an_error(self):
        self.az.put_blob("traces", "changing.bin", self.data)
        env = self.env(AZURE_STORAGE_CONNECTION_STRING=self.az.conn)
        go, opened = os.path.join(self.dir, "go"), os.path.join(self.dir, "opened")
        res = {}

        def run():
            res["r"] = self.read("az://traces/changing.bin", env, "signal:" + opened, "waitfile:" + go,
                                 "read:%d:10" % (3 * MiB), check=False)

        th = threading.Thread(target=run)
        th.start()
        for _ in range(1000):
            if os.path.exists(opened):
                break
            time.sleep(0.01)
        self.az.put_blob("traces", "changing.bin", self.data[::-1])
        open(go, "w").close()
        th.join()
        _, err, rc = res["r"]
        self.assertEqual(rc, 1)
        self.assertIn("the trace changed while it was read", err)
        self.assertEqual(self.got(), b"")

    def test_account_form_needs_an_account(self):
        _, err, rc = self.read("az://traces/t.bin", self.env(), "read:0:1", check=False)
        self.assertEqual(rc, 1)
        self.assertIn("az://ACCOUNT/CONTAINER/BLOB", err)


if __name__ == "__main__":
    TOOL = sys.argv.pop(1)
    ROOT = sys.argv.pop(1)
    unittest.main(verbosity=2)
