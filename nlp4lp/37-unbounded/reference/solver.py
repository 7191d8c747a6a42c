"""Reference solver for nlp4lp/37-unbounded (same model as nlp4lp/37): monthly treasury plan with a credit line and term deposits (LP)."""

import json
import os

import pulp

# --time-limit, --mip-gap, --threads reach the program as these variables (ARCHITECTURE.md "Solver programs")
OPTIONS = {arg: cast(os.environ[var]) for var, arg, cast in (("OPTIMUS_TIME_LIMIT", "timeLimit", float),
           ("OPTIMUS_MIP_GAP", "gapRel", float), ("OPTIMUS_THREADS", "threads", int)) if os.environ.get(var)}
SOLVERS = {"CBC": lambda: pulp.PULP_CBC_CMD(msg=False, **OPTIONS),
           "HIGHS": lambda: pulp.HiGHS(msg=False, **OPTIONS)}


def status_of(prob):
    if prob.status == 1:
        return "optimal" if prob.sol_status == 1 else "time_limit"
    if prob.sol_status == 2:
        return "time_limit"
    return {-1: "infeasible", -2: "unbounded"}.get(prob.status, "error")


def write(output, status, objective, prob):
    with open("output.json", "w") as f:
        json.dump(output, f)
    with open("solution.json", "w") as f:
        json.dump({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}, f)


def main():
    with open("data.json") as f:
        d = json.load(f)
    flow, r, term, rate = d["net_flow"], d["credit_rate"], d["deposit_term"], d["deposit_rate"]
    T, D = len(flow), len(term)
    prob = pulp.LpProblem("treasury", pulp.LpMaximize)
    cash = [prob.add_variable(f"cash_{t + 1}") for t in range(T)]
    borrow = [prob.add_variable(f"borrow_{t + 1}", lowBound=0) for t in range(T)]
    invest = [[prob.add_variable(f"invest_{k + 1}_{t + 1}", lowBound=0) for t in range(T)] for k in range(D)]

    def returning(t):
        """Deposits (with interest) that come back in month t (0-based; t == T is the horizon end)."""
        return pulp.lpSum((1 + rate[k]) * invest[k][t - term[k]] for k in range(D) if 0 <= t - term[k] < T)

    prob += cash[T - 1] + returning(T) - (1 + r) * borrow[T - 1]
    for t in range(T):
        prev = cash[t - 1] if t else d["initial_cash"]
        repay = (1 + r) * borrow[t - 1] if t else 0
        prob += (cash[t] == prev + flow[t] + borrow[t] - repay - pulp.lpSum(invest[k][t] for k in range(D))
                 + returning(t)), f"s8_balance_t{t + 1}"
        prob += cash[t] >= d["min_cash"], f"s3_min_cash_t{t + 1}"
        if d["credit_limit"] != -1:
            prob += borrow[t] <= d["credit_limit"], f"s5_credit_limit_t{t + 1}"
        for k in range(D):
            if t + 1 + term[k] > T + 1:
                prob += invest[k][t] == 0, f"s7_maturity_d{k + 1}_t{t + 1}"
    prob.writeMPS("model.mps")
    try:
        prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())
        status = status_of(prob)
    except pulp.PulpSolverError:
        status = "error"
    if status not in ("optimal", "time_limit"):
        write({}, status, None, prob)
        return
    objective = pulp.value(prob.objective)
    output = {
        "cash": [v.value() or 0.0 for v in cash],
        "borrow": [v.value() or 0.0 for v in borrow],
        "invest": [[v.value() or 0.0 for v in row] for row in invest],
        "final_wealth": objective,
    }
    write(output, status, objective, prob)


if __name__ == "__main__":
    main()
