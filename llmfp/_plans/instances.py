"""The multi-step instances: data.json of every llmfp/<kind>-<n> folder (our own names and numbers).
A `-unsat` instance has a goal that cannot be reached from its start; max_horizon bounds the harness's search."""

BLOCKS = {
    "blocks-1": {"blocks": ["oak", "pine", "elm"], "init_on": ["table", "oak", "table"],
                 "goal_on": [["oak", "pine"]], "max_horizon": 10},
    "blocks-2": {"blocks": ["ash", "birch", "cedar", "maple"], "init_on": ["table", "ash", "birch", "table"],
                 "goal_on": [["birch", "maple"], ["ash", "birch"], ["cedar", "table"]], "max_horizon": 12},
    "blocks-3": {"blocks": ["walnut", "teak", "yew", "fir", "larch"],
                 "init_on": ["table", "walnut", "table", "yew", "fir"],
                 "goal_on": [["fir", "walnut"], ["walnut", "larch"], ["teak", "fir"]], "max_horizon": 14},
    "blocks-1-unsat": {"blocks": ["oak", "pine", "elm"], "init_on": ["table", "oak", "table"],
                       "goal_on": [["oak", "pine"], ["pine", "oak"]], "max_horizon": 8},
}
MYSTERY = {
    "mystery-1": {"motes": ["vop", "trel", "quam"], "init_skels": ["floon", "floon", "vop"],
                  "goal_skels": [["trel", "quam"], ["quam", "floon"]], "max_horizon": 10},
    "mystery-2": {"motes": ["zink", "broff", "sull", "vop"], "init_skels": ["floon", "zink", "floon", "sull"],
                  "goal_skels": [["zink", "vop"], ["sull", "broff"]], "max_horizon": 12},
    "mystery-3": {"motes": ["quam", "dref", "yult", "pim", "oskar"],
                  "init_skels": ["dref", "yult", "floon", "floon", "pim"],
                  "goal_skels": [["yult", "quam"], ["pim", "dref"], ["oskar", "yult"]], "max_horizon": 14},
    "mystery-1-unsat": {"motes": ["vop", "trel", "quam"], "init_skels": ["floon", "floon", "vop"],
                        "goal_skels": [["vop", "trel"], ["trel", "quam"], ["quam", "vop"]], "max_horizon": 8},
}
HANDS = ["left", "right"]
GRIPPER = {
    "gripper-1": {"halls": ["atrium", "gallery"], "passages": [["atrium", "gallery"]], "hands": HANDS,
                  "exhibits": ["vase"], "robot_start": "atrium", "exhibit_start": ["atrium"],
                  "goal_in": [["vase", "gallery"]], "max_horizon": 8},
    "gripper-2": {"halls": ["foyer", "east_wing", "west_wing"],
                  "passages": [["foyer", "east_wing"], ["foyer", "west_wing"]], "hands": HANDS,
                  "exhibits": ["mask", "urn"], "robot_start": "foyer", "exhibit_start": ["east_wing", "east_wing"],
                  "goal_in": [["mask", "west_wing"], ["urn", "west_wing"]], "max_horizon": 12},
    "gripper-3": {"halls": ["lobby", "north_hall", "south_hall", "vault"],
                  "passages": [["lobby", "north_hall"], ["lobby", "south_hall"], ["south_hall", "vault"]],
                  "hands": HANDS, "exhibits": ["helmet", "scroll", "coin"], "robot_start": "north_hall",
                  "exhibit_start": ["north_hall", "north_hall", "vault"],
                  "goal_in": [["helmet", "vault"], ["scroll", "south_hall"], ["coin", "lobby"]], "max_horizon": 14},
    "gripper-1-unsat": {"halls": ["atrium", "gallery", "storeroom"], "passages": [["atrium", "gallery"]],
                        "hands": HANDS, "exhibits": ["vase", "bust"], "robot_start": "atrium",
                        "exhibit_start": ["atrium", "gallery"], "goal_in": [["vase", "storeroom"]], "max_horizon": 8},
}
HOUSEHOLD = {
    "household-1": {"places": ["counter", "sink"], "container": [0, 0], "tap": [0, 1], "items": ["plate"],
                    "robot_start": "sink", "item_start": ["sink"], "start_clean": [0], "start_open": [0, 0],
                    "goal_at": [["plate", "counter"]], "goal_clean": ["plate"], "goal_closed": [], "max_horizon": 8},
    "household-2": {"places": ["counter", "sink", "cupboard"], "container": [0, 0, 1], "tap": [0, 1, 0],
                    "items": ["mug"], "robot_start": "cupboard", "item_start": ["cupboard"], "start_clean": [0],
                    "start_open": [0, 0, 0], "goal_at": [["mug", "counter"]], "goal_clean": ["mug"],
                    "goal_closed": ["cupboard"], "max_horizon": 12},
    "household-3": {"places": ["counter", "sink", "cupboard", "fridge", "table"], "container": [0, 0, 1, 1, 0],
                    "tap": [0, 1, 0, 0, 0], "items": ["bowl", "jug"], "robot_start": "counter",
                    "item_start": ["counter", "fridge"], "start_clean": [0, 1], "start_open": [0, 0, 1, 0, 0],
                    "goal_at": [["bowl", "cupboard"], ["jug", "table"]], "goal_clean": ["bowl"],
                    "goal_closed": ["cupboard"], "max_horizon": 16},
    "household-1-unsat": {"places": ["counter", "pantry"], "container": [0, 1], "tap": [0, 0], "items": ["plate"],
                          "robot_start": "counter", "item_start": ["counter"], "start_clean": [0],
                          "start_open": [0, 0], "goal_at": [["plate", "pantry"]], "goal_clean": ["plate"],
                          "goal_closed": ["pantry"], "max_horizon": 10},
}
ARMS = ["left", "right"]
ROBOTS = ["ada", "bram"]
GRIPPER2 = {
    "gripper2-1": {"wards": ["lab", "ward_a", "ward_b"], "corridors": [["lab", "ward_a"], ["ward_a", "ward_b"]],
                   "robots": ROBOTS, "arms": ARMS, "trays": ["blood", "swab"], "robot_start": ["lab", "ward_b"],
                   "tray_start": ["lab", "ward_b"], "goal_in": [["blood", "ward_b"], ["swab", "lab"]],
                   "max_horizon": 12},
    "gripper2-2": {"wards": ["lab", "ward_a", "ward_b"], "corridors": [["lab", "ward_a"], ["ward_a", "ward_b"]],
                   "robots": ROBOTS, "arms": ARMS, "trays": ["blood", "serum", "swab", "biopsy"],
                   "robot_start": ["lab", "ward_b"], "tray_start": ["lab", "lab", "ward_b", "ward_b"],
                   "goal_in": [["blood", "ward_b"], ["serum", "ward_b"], ["swab", "lab"], ["biopsy", "lab"]],
                   "max_horizon": 16},
    "gripper2-3": {"wards": ["lab", "ward_a", "ward_b"], "corridors": [["lab", "ward_a"], ["ward_a", "ward_b"]],
                   "robots": ROBOTS, "arms": ARMS, "trays": ["blood", "serum", "urine", "swab", "biopsy"],
                   "robot_start": ["lab", "ward_b"], "tray_start": ["lab", "lab", "lab", "ward_b", "ward_b"],
                   "goal_in": [["blood", "ward_b"], ["serum", "ward_b"], ["urine", "ward_a"], ["swab", "lab"],
                               ["biopsy", "lab"]], "max_horizon": 24},
    "gripper2-1-unsat": {"wards": ["lab", "ward_a", "ward_b", "store"],
                         "corridors": [["lab", "ward_a"], ["ward_a", "ward_b"]], "robots": ROBOTS, "arms": ARMS,
                         "trays": ["blood", "swab"], "robot_start": ["lab", "ward_b"], "tray_start": ["lab", "ward_b"],
                         "goal_in": [["blood", "store"]], "max_horizon": 8},
}
