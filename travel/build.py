"""Write the travel/ problem folders from TRIPS: snop.json, data.json, data/ (the generated database, in the
trip's table format), reference/ (the MILP program), tests/, and expected.json from travel/check.py.

    python travel/build.py            # rewrites every travel/<n>/ folder
    python travel/build.py 7 16       # only these
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from check import best_trip  # noqa: E402
from generate import generate  # noqa: E402

# Each trip: the request in the traveller's words, then its parameters. fmt: the tables' file format.
TRIPS = [
    ("A long weekend for two from Ambermoor: two cities nearby, a seafood dinner, two sights.", "parquet",
     dict(origin="Ambermoor", cities=["Brackenfold", "Cindervale", "Dunmarrow"], visit=2, start_day=1, end_day=5,
          people=2, min_nights=2, budget=2500, room_types=["entire home", "private room"], refuse_rules=[],
          cuisines=["seafood"], min_attractions=2)),
    ("Solo trip out of Kestrelton, one city, at least three nights, any room, cheap as possible.", "csv",
     dict(origin="Kestrelton", cities=["Larkspur", "Mossbridge", "Juniper Bay", "Ironmere"], visit=1, start_day=2,
          end_day=8, people=1, min_nights=3, budget=1500, room_types=["entire home", "private room", "shared room"],
          refuse_rules=[], cuisines=[], min_attractions=1)),
    ("A family of four with a dog leaves Saltmarsh for two cities; the whole place to ourselves, no pet bans.",
     "parquet",
     dict(origin="Saltmarsh", cities=["Rookwater", "Thistlecombe", "Umberley", "Quarry Hill"], visit=2,
          start_day=1, end_day=9, people=4, min_nights=2, budget=6000, room_types=["entire home"],
          refuse_rules=["no pets"], cuisines=["grill"], min_attractions=3)),
    ("Three friends from Glassford want curry and dumplings somewhere, two cities, back by day 8.", "parquet",
     dict(origin="Glassford", cities=["Harrowgate", "Ironmere", "Fernhollow", "Eastwhistle"], visit=2,
          start_day=2, end_day=8, people=3, min_nights=2, budget=4500, room_types=["entire home", "private room"],
          refuse_rules=[], cuisines=["curry", "dumplings"], min_attractions=2)),
    ("A week from Oakenshaw across three cities, private rooms are fine, two nights each at least.", "parquet",
     dict(origin="Oakenshaw", cities=["Pellmouth", "Quarry Hill", "Northcaul", "Mossbridge", "Rookwater"],
          visit=3, start_day=1, end_day=8, people=2, min_nights=2, budget=5000,
          room_types=["entire home", "private room"], refuse_rules=[], cuisines=["vegetarian"], min_attractions=3)),
    ("Two of us from Zephyr Point, one city for four nights, we want tapas and four sights.", "csv",
     dict(origin="Zephyr Point", cities=["Ashcombe", "Yarrowby", "Willowreach"], visit=1, start_day=3, end_day=9,
          people=2, min_nights=4, budget=2500, room_types=["entire home", "private room", "shared room"],
          refuse_rules=[], cuisines=["tapas"], min_attractions=4)),
    ("From Copperhythe, two cities, a party of four: entire homes only and no house with a party ban.", "parquet",
     dict(origin="Copperhythe", cities=["Dovecote", "Emberstone", "Bramblewick", "Ashcombe"], visit=2,
          start_day=1, end_day=7, people=4, min_nights=2, budget=7000, room_types=["entire home"],
          refuse_rules=["no parties"], cuisines=[], min_attractions=2)),
    ("Backpacker from Vantmoor: shared rooms only, three cities in nine days, noodles once.", "parquet",
     dict(origin="Vantmoor", cities=["Willowreach", "Yarrowby", "Umberley", "Thistlecombe", "Saltmarsh"], visit=3,
          start_day=1, end_day=10, people=1, min_nights=2, budget=2000, room_types=["shared room"],
          refuse_rules=[], cuisines=["noodles"], min_attractions=3)),
    ("A couple from Harrowgate, two cities, bakery and seafood, smokers so no smoke-free houses.", "parquet",
     dict(origin="Harrowgate", cities=["Ironmere", "Juniper Bay", "Glassford", "Fernhollow", "Kestrelton"],
          visit=2, start_day=2, end_day=9, people=2, min_nights=2, budget=3500,
          room_types=["entire home", "private room"], refuse_rules=["no smoking"], cuisines=["bakery", "seafood"],
          min_attractions=2)),
    ("Out of Dunmarrow for one long stay of five nights or more, three sights, grill food.", "parquet",
     dict(origin="Dunmarrow", cities=["Eastwhistle", "Fernhollow", "Cindervale", "Brackenfold"], visit=1,
          start_day=1, end_day=10, people=2, min_nights=5, budget=3500,
          room_types=["entire home", "private room"], refuse_rules=[], cuisines=["grill"], min_attractions=3)),
    ("Four colleagues from Pellmouth, two cities, vegetarian and curry, at least three sights.", "parquet",
     dict(origin="Pellmouth", cities=["Quarry Hill", "Rookwater", "Oakenshaw", "Northcaul"], visit=2, start_day=1,
          end_day=7, people=4, min_nights=2, budget=6500, room_types=["entire home", "private room"],
          refuse_rules=[], cuisines=["vegetarian", "curry"], min_attractions=3)),
    ("From Emberstone with a cat: any room without a pet ban, two cities, dumplings.", "parquet",
     dict(origin="Emberstone", cities=["Ambermoor", "Brackenfold", "Dovecote", "Copperhythe"], visit=2,
          start_day=2, end_day=8, people=1, min_nights=2, budget=2500,
          room_types=["entire home", "private room", "shared room"], refuse_rules=["no pets"],
          cuisines=["dumplings"], min_attractions=1)),
    ("Three cities from Larkspur for a pair of students, shared or private rooms, tapas and noodles.", "parquet",
     dict(origin="Larkspur", cities=["Mossbridge", "Northcaul", "Kestrelton", "Juniper Bay", "Oakenshaw"],
          visit=3, start_day=1, end_day=10, people=2, min_nights=2, budget=4000,
          room_types=["private room", "shared room"], refuse_rules=[], cuisines=["tapas", "noodles"],
          min_attractions=3)),
    ("From Thistlecombe, one city, three nights, six of us in one entire home.", "parquet",
     dict(origin="Thistlecombe", cities=["Umberley", "Vantmoor", "Saltmarsh", "Rookwater"], visit=1,
          start_day=4, end_day=10, people=6, min_nights=3, budget=6000, room_types=["entire home"],
          refuse_rules=[], cuisines=["seafood"], min_attractions=2)),
    ("Ashcombe to two cities and home, a budget trip for two, bakery once, four sights.", "parquet",
     dict(origin="Ashcombe", cities=["Bramblewick", "Copperhythe", "Zephyr Point", "Yarrowby"], visit=2,
          start_day=1, end_day=6, people=2, min_nights=2, budget=3000,
          room_types=["entire home", "private room", "shared room"], refuse_rules=[], cuisines=["bakery"],
          min_attractions=4)),
    # Unsatisfiable as asked: the repair must find a change.
    ("Two from Ambermoor, two cities, dinner and sights, but only 300 to spend.", "parquet",
     dict(origin="Ambermoor", cities=["Brackenfold", "Cindervale", "Dunmarrow"], visit=2, start_day=1, end_day=5,
          people=2, min_nights=2, budget=300, room_types=["entire home", "private room"], refuse_rules=[],
          cuisines=["seafood"], min_attractions=2)),
    ("From Glassford, three cities with four nights in each, back by day 8.", "parquet",
     dict(origin="Glassford", cities=["Harrowgate", "Ironmere", "Fernhollow", "Eastwhistle"], visit=3,
          start_day=1, end_day=8, people=2, min_nights=4, budget=8000, room_types=["entire home", "private room"],
          refuse_rules=[], cuisines=[], min_attractions=1)),
    ("One city out of Kestrelton, but we want to see twenty sights there.", "csv",
     dict(origin="Kestrelton", cities=["Larkspur", "Mossbridge"], visit=1, start_day=2, end_day=8, people=1,
          min_nights=2, budget=3000, room_types=["entire home", "private room", "shared room"], refuse_rules=[],
          cuisines=[], min_attractions=20)),
]

STATEMENTS = [
    "The group flies out of \\param{origin} on day \\param{start_day}, on one flight of data/flights.",
    "They fly back into \\param{origin} on day \\param{end_day}, on one flight of data/flights.",
    "They visit exactly \\param{visit} different cities of \\param{cities}, flying directly from each stop to "
    "the next on flights of data/flights; a city is arrived at and left once.",
    "Every stay lasts at least \\param{min_nights} nights; a stay's nights are the day it leaves the city minus "
    "the day it arrived.",
    "In every city they visit they sleep in exactly one hotel of that city from data/hotels whose room_type is "
    "one of \\param{room_types}, whose max_guests is at least \\param{people} and whose rules is none of "
    "\\param{refuse_rules}; the stay lasts at least the hotel's min_nights. A hotel costs its price per night.",
    "For each cuisine of \\param{cuisines} they eat one meal at a restaurant of data/restaurants with that "
    "cuisine in a city they visit; a meal costs the restaurant's cost per person.",
    "They see at least \\param{min_attractions} attractions of data/attractions in the cities they visit; each "
    "costs its ticket per person.",
    "The flights (price per person, for \\param{people} people), the hotels, the meals and the tickets together "
    "cost at most \\param{budget}.",
]

INPUT_FORMAT = """{"origin": origin, "cities": [city_i for i in 1, ..., N], "visit": visit, "start_day": start_day,
"end_day": end_day, "people": people, "min_nights": min_nights, "budget": budget,
"room_types": [room_type_j for j in 1, ..., R], "refuse_rules": [rule_k for k in 1, ..., K],
"cuisines": [cuisine_q for q in 1, ..., Q], "min_attractions": min_attractions}
data/flights.EXT(flight_id, origin, dest, day, depart_hour, price)
data/hotels.EXT(hotel_id, city, name, room_type, price, max_guests, min_nights, rules)
data/restaurants.EXT(restaurant_id, city, name, cuisine, cost)
data/attractions.EXT(attraction_id, city, name, category, ticket)"""

OUTPUT_FORMAT = """{"route": [city_i for i in 1, ..., visit], "days": [day_l for l in 1, ..., L],
"flights": [flight_id_l for l in 1, ..., L], "hotels": [hotel_id_i for i in 1, ..., visit],
"restaurants": [restaurant_id_q for q in 1, ..., Q], "attractions": [attraction_id_a for a in 1, ..., A],
"total_cost": total_cost}"""

OUTPUT_INFO = [
    "route lists the visited cities in the order visited; L = visit + 1 flights, in the order flown, with "
    "their days",
    "hotels, restaurants and attractions list the ids chosen; total_cost is the cost of the whole trip",
]


def snop(request: str, fmt: str) -> dict:
    return {"name": request.split(":")[0].split(",")[0][:60], "problem_type": "MILP",
            "problem_info": STATEMENTS, "input_format": INPUT_FORMAT.replace("EXT", fmt),
            "objective": "Minimize the total cost of the trip (the sum in the last statement).",
            "output_info": OUTPUT_INFO, "output_format": OUTPUT_FORMAT, "solver": "pulp", "notes": request}


def write(folder: Path, request: str, fmt: str, params: dict) -> None:
    shutil.rmtree(folder / "data", ignore_errors=True)
    for sub in ("reference", "tests"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    (folder / "snop.json").write_text(json.dumps(snop(request, fmt), indent=2, ensure_ascii=False) + "\n")
    (folder / "data.json").write_text(json.dumps(params, indent=1) + "\n")
    generate(folder / "data", fmt=fmt)
    shutil.copy(HERE / "solver.py", folder / "reference" / "solver.py")
    shutil.copy(HERE / "formulation.md", folder / "reference" / "formulation.md")
    shutil.copy(HERE / "test_trip.py", folder / "tests" / "test_trip.py")
    best = best_trip(folder)
    expected = ({"objective": None, "sense": "min", "status": "infeasible"} if best is None
                else {"objective": best, "sense": "min", "status": "optimal", "abs_tol": 0.5})
    (folder / "expected.json").write_text(json.dumps(expected, indent=2) + "\n")


def main() -> None:
    for n, (request, fmt, params) in enumerate(TRIPS, 1):
        if sys.argv[1:] and str(n) not in sys.argv[1:]:
            continue
        name = f"{n}-infeasible" if n > 15 else str(n)
        write(HERE / name, request, fmt, params)
        print(name, (HERE / name / "expected.json").read_text().replace("\n", " "))


if __name__ == "__main__":
    main()
