; A courier robot with two baskets moves parcels between rooms joined by corridors.
(define (domain porter)
  (:requirements :strips :typing)
  (:types room parcel basket)
  (:predicates
    (robot-in ?r - room)
    (lies-in ?p - parcel ?r - room)  ; the parcel lies on the floor of ?r
    (carried ?p - parcel ?b - basket)
    (empty ?b - basket)
    (corridor ?from - room ?to - room))  ; listed once per direction

  (:action drive
    :parameters (?from - room ?to - room)
    :precondition (and (robot-in ?from) (corridor ?from ?to))
    :effect (and (robot-in ?to) (not (robot-in ?from))))

  (:action load
    :parameters (?p - parcel ?b - basket ?r - room)
    :precondition (and (robot-in ?r) (lies-in ?p ?r) (empty ?b))
    :effect (and (carried ?p ?b) (not (lies-in ?p ?r)) (not (empty ?b))))

  (:action unload
    :parameters (?p - parcel ?b - basket ?r - room)
    :precondition (and (robot-in ?r) (carried ?p ?b))
    :effect (and (lies-in ?p ?r) (empty ?b) (not (carried ?p ?b)))))
