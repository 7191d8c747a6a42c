; Replacing bicycle inner tubes: each wheel goes through a fixed procedure, with tools from a toolbox.
(define (domain bike)
  (:requirements :strips :typing)
  (:types wheel tube tool - object
          spanner levers pump - tool)
  (:predicates
    (in-box ?t - tool) (holding ?t - tool)
    (brake-closed ?w - wheel) (brake-open ?w - wheel)
    (axle-tight ?w - wheel) (axle-loose ?w - wheel)
    (on-bike ?w - wheel) (off-bike ?w - wheel)
    (tyre-seated ?w - wheel) (tyre-off ?w - wheel)
    (has-tube ?w - wheel) (no-tube ?w - wheel)  ; whether a tube is inside the tyre
    (tube-holed ?w - wheel)        ; the tube inside has a hole
    (tube-sound ?w - wheel)        ; the tube inside has no hole
    (soft ?w - wheel) (pumped ?w - wheel)
    (spare ?t - tube)              ; a loose tube in the parts bag
    (holeless ?t - tube))          ; this tube has no hole

  (:action fetch
    :parameters (?t - tool)
    :precondition (in-box ?t)
    :effect (and (holding ?t) (not (in-box ?t))))
  (:action stow
    :parameters (?t - tool)
    :precondition (holding ?t)
    :effect (and (in-box ?t) (not (holding ?t))))

  (:action open-brake
    :parameters (?w - wheel)
    :precondition (and (on-bike ?w) (brake-closed ?w))
    :effect (and (brake-open ?w) (not (brake-closed ?w))))
  (:action loosen-axle
    :parameters (?w - wheel ?s - spanner)
    :precondition (and (on-bike ?w) (axle-tight ?w) (holding ?s))
    :effect (and (axle-loose ?w) (not (axle-tight ?w))))
  (:action remove-wheel
    :parameters (?w - wheel)
    :precondition (and (on-bike ?w) (brake-open ?w) (axle-loose ?w))
    :effect (and (off-bike ?w) (not (on-bike ?w))))
  (:action lever-off-tyre
    :parameters (?w - wheel ?l - levers)
    :precondition (and (off-bike ?w) (tyre-seated ?w) (soft ?w) (holding ?l))
    :effect (and (tyre-off ?w) (not (tyre-seated ?w))))
  (:action pull-tube
    :parameters (?w - wheel)
    :precondition (and (tyre-off ?w) (has-tube ?w) (tube-holed ?w))
    :effect (and (no-tube ?w) (not (has-tube ?w)) (not (tube-holed ?w))))
  (:action fit-tube
    :parameters (?w - wheel ?t - tube)
    :precondition (and (tyre-off ?w) (no-tube ?w) (spare ?t) (holeless ?t))
    :effect (and (has-tube ?w) (tube-sound ?w) (not (no-tube ?w)) (not (spare ?t))))
  (:action seat-tyre
    :parameters (?w - wheel ?l - levers)
    :precondition (and (tyre-off ?w) (has-tube ?w) (holding ?l))
    :effect (and (tyre-seated ?w) (not (tyre-off ?w))))
  (:action pump-up
    :parameters (?w - wheel ?p - pump)
    :precondition (and (tyre-seated ?w) (tube-sound ?w) (soft ?w) (holding ?p))
    :effect (and (pumped ?w) (not (soft ?w))))
  (:action refit-wheel
    :parameters (?w - wheel)
    :precondition (and (off-bike ?w) (tyre-seated ?w))
    :effect (and (on-bike ?w) (not (off-bike ?w))))
  (:action tighten-axle
    :parameters (?w - wheel ?s - spanner)
    :precondition (and (on-bike ?w) (axle-loose ?w) (holding ?s))
    :effect (and (axle-tight ?w) (not (axle-loose ?w))))
  (:action close-brake
    :parameters (?w - wheel)
    :precondition (and (on-bike ?w) (brake-open ?w))
    :effect (and (brake-closed ?w) (not (brake-open ?w)))))
