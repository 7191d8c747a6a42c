(define (problem bike-1)
  (:domain bike)
  (:objects
    front - wheel
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
    (tube-holed front)
    (spare tube-a)
    (holeless tube-a)
  )
  (:goal (and
    (pumped front)
    (on-bike front)
    (axle-tight front)
    (brake-closed front)
    (in-box spanner15)
    (in-box tyre-levers)
    (in-box floor-pump)
  ))
)
