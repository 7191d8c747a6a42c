"""A trip as a MILP over the travel tables (the reference program of every travel/ folder).

The tables are queried with DuckDB and only the rows the request can use reach Python: the cheapest flight per
pair of the request's cities and day (an aggregate, so memory follows the query, not the file), the allowed
hotels, restaurants and attractions of its cities. Time runs forward along the route, which rules out subtours.
"""

import glob
import json
import os

import duckdb
import pulp


def rows(name, query, params):
    path = glob.glob(f"data/{name}.*")[0]
    return duckdb.sql(query.replace("{t}", f"'{path}'"), params=params).fetchall()


req = json.load(open("data.json"))
O, C, P = req["origin"], req["cities"], req["people"]
start, end = req["start_day"], req["end_day"]
legs = rows("flights", "SELECT origin, dest, day, min(price), arg_min(flight_id, price) FROM {t} "
            "WHERE list_contains(?, origin) AND list_contains(?, dest) AND origin <> dest AND day BETWEEN ? AND ? GROUP BY ALL ORDER BY ALL",
            [[O, *C], [O, *C], start, end])
legs = [f for f in legs if (f[0] != O or f[2] == start) and (f[1] != O or f[2] == end)]
hotels = rows("hotels", "SELECT hotel_id, city, price, min_nights FROM {t} WHERE list_contains(?, city) AND list_contains(?, room_type) "
              "AND max_guests >= ? AND NOT list_contains(?, rules) ORDER BY hotel_id",
              [C, req["room_types"], P, req["refuse_rules"] or ["-"]])
meals = rows("restaurants", "SELECT restaurant_id, city, cuisine, cost FROM {t} WHERE list_contains(?, city) AND list_contains(?, cuisine) "
             "ORDER BY restaurant_id", [C, req["cuisines"] or ["-"]])
sights = rows("attractions", "SELECT attraction_id, city, ticket FROM {t} WHERE list_contains(?, city) ORDER BY attraction_id", [C])

prob = pulp.LpProblem("trip", pulp.LpMinimize)
x = {i: prob.add_variable(f"fly_{i}", cat="Binary") for i in range(len(legs))}
v = {c: prob.add_variable(f"visit_{k}", cat="Binary") for k, c in enumerate(C)}
y = {h[0]: prob.add_variable(f"hotel_{h[0]}", cat="Binary") for h in hotels}
z = {h[0]: prob.add_variable(f"hotelcost_{h[0]}", lowBound=0) for h in hotels}
m = {r[0]: prob.add_variable(f"meal_{r[0]}", cat="Binary") for r in meals}
a = {t[0]: prob.add_variable(f"sight_{t[0]}", cat="Binary") for t in sights}
key = {c: "".join(ch for ch in c if ch.isalnum()) for c in C}


def out_of(c):
    return [i for i, f in enumerate(legs) if f[0] == c]


def into(c):
    return [i for i, f in enumerate(legs) if f[1] == c]


def nights(c):
    return pulp.lpSum(legs[i][2] * x[i] for i in out_of(c)) - pulp.lpSum(legs[i][2] * x[i] for i in into(c))


prob += pulp.lpSum(x[i] for i in out_of(O)) == 1, "s1_leave_home"
prob += pulp.lpSum(x[i] for i in into(O)) == 1, "s2_return_home"
prob += pulp.lpSum(v.values()) == req["visit"], "s3_count"
for c in C:
    prob += pulp.lpSum(x[i] for i in into(c)) == v[c], f"s3_arrive_{key[c]}"
    prob += pulp.lpSum(x[i] for i in out_of(c)) == v[c], f"s3_leave_{key[c]}"
    prob += nights(c) >= req["min_nights"] * v[c], f"s4_nights_{key[c]}"
    prob += pulp.lpSum(y[h[0]] for h in hotels if h[1] == c) == v[c], f"s5_hotel_{key[c]}"
big = end - start
for hid, city, price, least in hotels:
    prob += nights(city) >= least * y[hid], f"s5_hotel_min_nights_{hid}"
    prob += z[hid] >= price * (nights(city) - big * (1 - y[hid])), f"s5_hotel_cost_{hid}"
for cuisine in req["cuisines"]:
    prob += pulp.lpSum(m[r[0]] for r in meals if r[2] == cuisine) >= 1, f"s6_meal_{cuisine}"
for rid, city, _, _ in meals:
    prob += m[rid] <= v[city], f"s6_meal_in_visited_{rid}"
prob += pulp.lpSum(a.values()) >= req["min_attractions"], "s7_attractions"
for tid, city, _ in sights:
    prob += a[tid] <= v[city], f"s7_sight_in_visited_{tid}"
total = (P * pulp.lpSum(legs[i][3] * x[i] for i in x) + pulp.lpSum(z.values())
         + P * pulp.lpSum(r[3] * m[r[0]] for r in meals) + P * pulp.lpSum(t[2] * a[t[0]] for t in sights))
prob += total <= req["budget"], "s8_budget"
prob += total
prob.writeMPS("model.mps")
solver = pulp.PULP_CBC_CMD(msg=False) if os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper() == "CBC" else pulp.HiGHS(msg=False)
prob.solve(solver)
optimal = prob.status == pulp.LpStatusOptimal and prob.sol_status == pulp.LpSolutionOptimal
status = "optimal" if optimal else {pulp.LpStatusInfeasible: "infeasible",
                                    pulp.LpStatusUnbounded: "unbounded"}.get(prob.status, "error")
output = {}
if optimal:
    taken = sorted((legs[i] for i in x if x[i].varValue > 0.5), key=lambda f: f[2])
    output = {"route": [f[1] for f in taken[:-1]], "flights": [int(f[4]) for f in taken],
              "days": [int(f[2]) for f in taken],
              "hotels": [int(h) for h in y if y[h].varValue > 0.5],
              "restaurants": [int(r) for r in m if m[r].varValue > 0.5],
              "attractions": [int(t) for t in a if a[t].varValue > 0.5],
              "total_cost": pulp.value(prob.objective)}
json.dump(output, open("output.json", "w"))
json.dump({"status": status, "objective": pulp.value(prob.objective) if optimal else None,
           "values": {var.name: var.varValue for var in prob.variables()}}, open("solution.json", "w"))
