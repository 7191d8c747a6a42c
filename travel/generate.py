"""The travel database of our own: flights, hotels, restaurants and attractions for 30 invented cities.

Deterministic: every value is a function of a row's index (flights, written by DuckDB, so 10^7 rows take seconds
and little memory) or of a fixed seed. `--flights N` scales the flights table; the committed trip folders hold
the base size (DEFAULT_FLIGHTS rows: one flight per connected pair and day).

    python travel/generate.py OUT_DIR [--flights N] [--format parquet|csv]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import duckdb

CITIES = [
    "Ambermoor", "Brackenfold", "Cindervale", "Dunmarrow", "Eastwhistle", "Fernhollow", "Glassford", "Harrowgate",
    "Ironmere", "Juniper Bay", "Kestrelton", "Larkspur", "Mossbridge", "Northcaul", "Oakenshaw", "Pellmouth",
    "Quarry Hill", "Rookwater", "Saltmarsh", "Thistlecombe", "Umberley", "Vantmoor", "Willowreach", "Yarrowby",
    "Zephyr Point", "Ashcombe", "Bramblewick", "Copperhythe", "Dovecote", "Emberstone",
]
CUISINES = ["noodles", "seafood", "grill", "vegetarian", "bakery", "curry", "tapas", "dumplings"]
ROOM_TYPES = ["entire home", "private room", "shared room"]
RULES = ["none", "no pets", "no parties", "no smoking"]
CATEGORIES = ["museum", "park", "market", "tower", "garden", "gallery"]
DAYS = 10  # flights run on days 1..DAYS
HOPS = (1, 2, 3, 5)  # city i flies to i±h (mod 30): each city reaches 8 others directly
SEED = 2204


def pairs() -> list[tuple[int, str, str, int]]:
    """(pair index, origin, destination, base fare) of every connected ordered pair."""
    n, out = len(CITIES), []
    for i in range(n):
        for h in HOPS:
            for j in ((i + h) % n, (i - h) % n):
                out.append((len(out), CITIES[i], CITIES[j], 60 + 11 * h + (7 * i + 3 * j) % 40))
    return out


DEFAULT_FLIGHTS = len(pairs()) * DAYS


def write_flights(con: duckdb.DuckDBPyConnection, dest: Path, rows: int, fmt: str) -> None:
    """Row i: pair i mod P on day (i div P) mod DAYS + 1; a larger table adds more flights per pair and day.
    Hour and fare come from integer hashes of i, the same in every DuckDB version."""
    table = pairs()
    con.execute("CREATE OR REPLACE TEMP TABLE pairs (k BIGINT, origin VARCHAR, dest VARCHAR, base BIGINT)")
    con.executemany("INSERT INTO pairs VALUES (?, ?, ?, ?)", table)
    query = f"""
        SELECT i + 1 AS flight_id, p.origin, p.dest, CAST((i // {len(table)}) % {DAYS} + 1 AS INTEGER) AS day,
               CAST(6 + ((i * 2654435761 + 97) % 2147483647) % 16 AS INTEGER) AS depart_hour,
               CAST(p.base + ((i * 1103515245 + 12345) % 2147483647) % 90 AS INTEGER) AS price
        FROM range({rows}) r(i) JOIN pairs p ON p.k = i % {len(table)} ORDER BY flight_id"""
    _copy(con, query, dest / f"flights.{fmt}", fmt)


def small_tables(seed: int = SEED) -> dict[str, tuple[list[str], list[tuple]]]:
    """hotels, restaurants and attractions: (column names, rows), from one seeded generator."""
    rnd = random.Random(seed)
    hotels, restaurants, attractions = [], [], []
    for c, city in enumerate(CITIES):
        for k in range(8):
            hotels.append((len(hotels) + 1, city, f"{city} {['Inn', 'Lodge', 'House', 'Rooms'][k % 4]} {k + 1}",
                           ROOM_TYPES[rnd.randrange(3)], 40 + rnd.randrange(160), 1 + rnd.randrange(6),
                           1 + rnd.randrange(3), RULES[rnd.randrange(4)]))
        for k in range(10):
            restaurants.append((len(restaurants) + 1, city, f"{city} Table {k + 1}", CUISINES[rnd.randrange(8)],
                                8 + rnd.randrange(45)))
        for k in range(6):
            ticket = 0 if rnd.random() < 0.2 else 5 + rnd.randrange(30)
            attractions.append((len(attractions) + 1, city, f"{city} {CATEGORIES[k].title()}", CATEGORIES[k], ticket))
    return {
        "hotels": (["hotel_id", "city", "name", "room_type", "price", "max_guests", "min_nights", "rules"], hotels),
        "restaurants": (["restaurant_id", "city", "name", "cuisine", "cost"], restaurants),
        "attractions": (["attraction_id", "city", "name", "category", "ticket"], attractions),
    }


def _copy(con: duckdb.DuckDBPyConnection, query: str, path: Path, fmt: str) -> None:
    options = "(FORMAT parquet, COMPRESSION zstd)" if fmt == "parquet" else "(FORMAT csv, HEADER true)"
    con.execute(f"COPY ({query}) TO '{path}' {options}")


def generate(dest: Path, flights: int = DEFAULT_FLIGHTS, fmt: str = "parquet") -> None:
    dest.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(config={"threads": 2, "memory_limit": "1GB"})
    write_flights(con, dest, flights, fmt)
    for name, (columns, rows) in small_tables().items():
        marks = ", ".join("?" * len(columns))
        con.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS SELECT * FROM (VALUES ({marks})) t({', '.join(columns)}) "
                    "WHERE false", rows[0])
        con.executemany(f"INSERT INTO {name} VALUES ({marks})", rows)
        _copy(con, f"SELECT * FROM {name} ORDER BY 1", dest / f"{name}.{fmt}", fmt)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--flights", type=int, default=DEFAULT_FLIGHTS, help="rows of the flights table")
    parser.add_argument("--format", choices=("parquet", "csv"), default="parquet")
    args = parser.parse_args()
    generate(args.out, args.flights, args.format)


if __name__ == "__main__":
    main()
