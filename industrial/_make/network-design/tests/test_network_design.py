"""Supervised tests of a network design (industrial/network-design) against data.json and the tables in data/."""

import os
from collections import defaultdict
from pathlib import Path

import duckdb
import pytest

DATA = Path(os.environ.get("OPTIMUS_TEST_DIR", ".")) / "data"


def table(name):
    rel = duckdb.sql(f"SELECT * FROM '{DATA / name}'")
    return [dict(zip(rel.columns, r)) for r in rel.fetchall()]


def near(a, b, eps):
    return abs(a - b) <= eps * max(1.0, abs(a), abs(b))


@pytest.fixture(scope="module")
def net():
    return {"terminals": [r["terminal"] for r in table("terminals.csv")],
            "links": {r["link"]: r for r in table("links.parquet")},
            "shipments": {r["shipment"]: r for r in table("shipments.csv")}}


@pytest.fixture(scope="module")
def flows(output):
    got = defaultdict(float)
    for f in output["flows"]:
        got[f["link"], f["shipment"]] += f["crates"]
    return got


def test_output_keys(output):
    assert {"leased", "flows", "total_cost"} <= set(output), f"output keys {sorted(output)}"


def test_known_links_and_shipments(output, flows, net):
    unknown = [a for a in output["leased"] if a not in net["links"]]
    unknown += [k for k in flows if k[0] not in net["links"] or k[1] not in net["shipments"]]
    assert not unknown, f"unknown links or shipments: {unknown[:3]}"


def test_s9_flows_not_negative(flows, eps):
    neg = [(k, v) for k, v in flows.items() if v < -eps]
    assert not neg, f"negative flows: {neg[:3]}"


def test_s2_flows_only_on_leased_links(flows, output, eps):
    leased = set(output["leased"])
    bad = [(k, v) for k, v in flows.items() if v > eps and k[0] not in leased]
    assert not bad, f"flows on links not leased: {bad[:3]}"


def test_s4_flow_conservation(flows, net, eps):
    net_out = defaultdict(float)
    for (a, k), v in flows.items():
        link = net["links"][a]
        net_out[k, link["tail"]] += v
        net_out[k, link["head"]] -= v
    bad = []
    for k, s in net["shipments"].items():
        for t in net["terminals"]:
            want = s["crates"] if t == s["origin"] else -s["crates"] if t == s["destination"] else 0
            if not near(net_out[k, t], want, eps):
                bad.append((k, t, net_out[k, t], want))
    assert not bad, f"{len(bad)} (shipment, terminal) balances broken (got, want): {bad[:3]}"


def test_s5_capacity(flows, net, eps):
    load = defaultdict(float)
    for (a, _), v in flows.items():
        load[a] += v
    bad = [(a, v, net["links"][a]["capacity"]) for a, v in load.items() if v > net["links"][a]["capacity"] + eps * v]
    assert not bad, f"links over capacity (link, crates, capacity): {bad[:3]}"


def test_s6_shipment_flow_at_most_its_crates(flows, net, eps):
    bad = [(k, v) for k, v in flows.items() if v > net["shipments"][k[1]]["crates"] * (1 + eps) + eps]
    assert not bad, f"flows above the shipment's crates: {bad[:3]}"


def test_total_cost_matches_plan(output, flows, net, eps):
    cost = sum(net["links"][a]["lease_cost"] for a in set(output["leased"]))
    cost += sum(net["links"][a]["cost_per_crate"] * v for (a, _), v in flows.items())
    assert near(cost, output["total_cost"], 10 * eps), f"total_cost {output['total_cost']} != {cost} from the plan"
