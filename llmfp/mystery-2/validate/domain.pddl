; Motes moved one at a time by the grox (the semantics of the mystery statements s1-s9).
(define (domain mote-shuffle)
  (:requirements :strips :typing)
  (:types mote)
  (:predicates (skels ?x - mote ?y - mote) (floony ?x - mote) (brindled ?x - mote)
               (harbours ?x - mote) (vacant))
  (:action yonk
    :parameters (?x - mote)
    :precondition (and (brindled ?x) (floony ?x) (vacant))
    :effect (and (harbours ?x) (not (floony ?x)) (not (brindled ?x)) (not (vacant))))
  (:action plorf
    :parameters (?x - mote)
    :precondition (harbours ?x)
    :effect (and (floony ?x) (brindled ?x) (vacant) (not (harbours ?x))))
  (:action quibble
    :parameters (?x - mote ?y - mote)
    :precondition (and (harbours ?x) (brindled ?y))
    :effect (and (skels ?x ?y) (brindled ?x) (vacant) (not (harbours ?x)) (not (brindled ?y))))
  (:action dazzle
    :parameters (?x - mote ?y - mote)
    :precondition (and (vacant) (brindled ?x) (skels ?x ?y))
    :effect (and (harbours ?x) (brindled ?y) (not (skels ?x ?y)) (not (brindled ?x)) (not (vacant)))))
