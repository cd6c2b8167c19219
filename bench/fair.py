"""Fair sharing of one server (issue 31), in one run (`python -m bench.fair`, also in
`make bench`): a user's table page (/table/) timed while nobody prints, then while another
user floods the server with FLOOD sheet PDFs at once, each asked again as soon as it comes
(or, refused, after its Retry-After), against gunicorn as
production runs it (2 workers x 4 threads). The figure is the flooded median as a ratio to
the quiet one (target: under 3x; before render slots it was ~1,800x, 25.5 s against 14 ms),
with what the flood's requests were answered.

Runs against its own database (a temporary SQLite file, or `<DATABASE_URL name>_bench` on
PostgreSQL), never the one you work in; gunicorn listens on 127.0.0.1 only.
"""

import statistics
import threading
import time
from collections import Counter

from bench.web import Player, Server, bench_database_url, bench_django, ms, percentile, seed

FLOOD = 16  # PDF requests at once, as the probe sent
PAGES = 40  # table pages timed, quiet and flooded
TARGET = 3.0


def time_pages(player, count=PAGES) -> list[float]:
    times = []
    for _ in range(count):
        start = time.perf_counter()
        response, _ = player.request("GET", "/table/")
        times.append(time.perf_counter() - start)
        if response.status != 200:
            raise OSError(f"the table page answered {response.status}")
        time.sleep(0.05)
    return times


def main():
    url, drop = bench_database_url()
    try:
        env = bench_django(url)
        flooder_seed, reader_seed = seed(2)
        with Server(env) as server:
            flooder = Player(server.port, *flooder_seed, edits=0, think=None)
            reader = Player(server.port, *reader_seed, edits=0, think=None)
            flooder.log_in()
            reader.log_in()
            time_pages(reader, 5)  # warm both workers
            quiet = time_pages(reader)
            stop, answers = threading.Event(), Counter()

            def flood():
                printer = Player(server.port, *flooder_seed, edits=0, think=None)
                printer.cookies = dict(flooder.cookies)
                while not stop.is_set():
                    response, _ = printer.request("GET", f"/characters/{flooder.pk}/sheet.pdf")
                    answers[response.status] += 1
                    if response.status == 429:  # as a browser's user would: a while later
                        stop.wait(int(response.getheader("Retry-After", "5")))

            threads = [threading.Thread(target=flood, daemon=True) for _ in range(FLOOD)]
            for thread in threads:
                thread.start()
            time.sleep(2)  # the flood under way
            flooded = time_pages(reader)
            stop.set()
            for thread in threads:
                thread.join(timeout=60)
        ratio = statistics.median(flooded) / statistics.median(quiet)
        print(f"fair sharing: another user's /table/ page, {PAGES} requests each, gunicorn 2x4")
        print(
            f"  quiet    median {ms(statistics.median(quiet))}   p95 {ms(percentile(quiet, 0.95))}"
        )
        print(
            f"  flooded  median {ms(statistics.median(flooded))}   "
            f"p95 {ms(percentile(flooded, 0.95))}   ({FLOOD} sheet PDFs at once, again and again)"
        )
        print(f"  ratio    {ratio:.2f}x the quiet median (target under {TARGET:.0f}x)")
        shown = ", ".join(f"{count} x {status}" for status, count in sorted(answers.items()))
        print(f"  the flood's PDF requests were answered: {shown} (429: try again shortly)")
    finally:
        drop()


if __name__ == "__main__":
    main()
