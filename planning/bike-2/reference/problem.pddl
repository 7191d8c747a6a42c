(define (problem bike-2)
  (:domain bike)
  (:objects
    front rear - wheel
    tube-a - tube
    spanner15 - spanner
    tyre-levers - levers
    floor-pump - pump
  )
  (:init
    (in-box spanner15)
    (in-box tyre-levers)
    (in-box floor-pump)
    (on-bike front)
    (brake-closed front)
    (axle-tight front)
    (tyre-seated front)
    (has-tube front)
    (soft front)
    (on-bike rear)
    (brake-closed rear)
    (axle-tight rear)
    (tyre-seated rear)
    (has-tube rear)
    (soft rear)
    (tube-holed front)
    (tube-sound rear)
    (spare tube-a)
    (holeless tube-a)
  )
  (:goal (and
    (pumped front)
    (on-bike front)
    (axle-tight front)
    (brake-closed front)
    (pumped rear)
    (on-bike rear)
    (axle-tight rear)
    (brake-closed rear)
    (in-box spanner15)
    (in-box tyre-levers)
    (in-box floor-pump)
  ))
)
