#!/usr/bin/env python3
"""A TCP proxy on a loopback port that adds latency: every byte from the client reaches the server `ms`
milliseconds later (order kept, throughput not limited), so each request/answer round trip costs `ms` more.
For the remote benchmark (tools/bench/bench_remote.py) and tests.

Usage: latency_proxy.py TARGET_PORT MS [LISTEN_PORT]; prints "port N" when ready.
"""
import asyncio
import sys
import threading
import time


async def _pipe_delayed(reader, writer, delay):
    queue = asyncio.Queue()

    async def pump():
        while True:
            data = await reader.read(65536)
            await queue.put((time.monotonic() + delay, data))
            if not data:
                return

    async def send():
        while True:
            due, data = await queue.get()
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if not data:
                break
            writer.write(data)
            await writer.drain()
        writer.close()

    await asyncio.gather(pump(), send(), return_exceptions=True)


async def _pipe(reader, writer):
    try:
        while True:
            data = await reader.read(1 << 20)
            if not data:
                break
            writer.write(data)
            await writer.drain()
    finally:
        writer.close()


def start(target_port, ms, listen_port=0):
    """Start the proxy in a thread; returns its port."""
    ready = threading.Event()
    box = {}

    async def handle(cr, cw):
        try:
            sr, sw = await asyncio.open_connection("127.0.0.1", target_port)
        except OSError:
            cw.close()
            return
        await asyncio.gather(_pipe_delayed(cr, sw, ms / 1000.0), _pipe(sr, cw), return_exceptions=True)

    async def main():
        srv = await asyncio.start_server(handle, "127.0.0.1", listen_port)
        box["port"] = srv.sockets[0].getsockname()[1]
        ready.set()
        async with srv:
            await srv.serve_forever()

    threading.Thread(target=lambda: asyncio.run(main()), daemon=True).start()
    ready.wait()
    return box["port"]


if __name__ == "__main__":
    port = start(int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    print("port %d" % port, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
