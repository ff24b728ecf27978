/* The one pin table of the shoe controller (Arduino Nano, ATmega328P).
 * hardware/PINMAP.md is generated from this table (`make -C firmware pinmap`) and a test checks
 * that the two agree; the simavr harness wires its virtual sensors from it too.
 *
 * SHOE_INPUT(signal, port, bit, nano pin, active level, hal bit, wiring)
 * SHOE_OUTPUT(signal, port, bit, nano pin, active level, wiring)
 * Inputs use the internal pull-up; "active" is the level the pin reads when the thing is so.
 * Every input is polled at the 1 kHz tick, so none needs an interrupt pin. D2 (INT0) is left
 * free and D3 (INT1) carries the LED ring, which is always on: simavr models a low level on
 * INT0/INT1 as a pending level interrupt it re-checks every few cycles, whether or not the
 * interrupt is enabled, which made the harness 25 times slower with a low pin there. */
#ifndef SHOE_PINS_H
#define SHOE_PINS_H

#define SHOE_INPUTS(X) \
    X(ESTOP,      B, 0, D8,  HIGH, IN_ESTOP,        "E-stop NC contact to GND: pressed or cut wire reads high") \
    X(DOOR,       B, 1, D9,  HIGH, IN_DOOR_OPEN,    "door microswitch closes to GND when shut") \
    X(PASS,       C, 0, A0,  LOW,  IN_PASS,         "TCRT5000 module DO at the read-station throat") \
    X(STATION,    C, 1, A1,  LOW,  IN_STATION,      "TCRT5000 module DO under the card's rest position") \
    X(HOPPER,     C, 2, A2,  HIGH, IN_HOPPER_EMPTY, "TCRT5000 module DO through the hopper floor (high: no card)") \
    X(HOME,       B, 3, D11, LOW,  IN_HOME,         "A3144 hall switch, carousel magnet at pocket N") \
    X(BEAM_N,     C, 3, A3,  LOW,  IN_BEAM(0),      "IR break-beam receiver, pocket N chute") \
    X(BEAM_E,     C, 4, A4,  LOW,  IN_BEAM(1),      "IR break-beam receiver, pocket E chute") \
    X(BEAM_S,     C, 5, A5,  LOW,  IN_BEAM(2),      "IR break-beam receiver, pocket S chute") \
    X(BEAM_W,     B, 2, D10, LOW,  IN_BEAM(3),      "IR break-beam receiver, pocket W chute")

#define SHOE_OUTPUTS(X) \
    X(FEED,       D, 4, D4,  HIGH, "DRV8833 AIN1 (AIN2 to GND): feed roller N20 motor") \
    X(EXIT,       D, 5, D5,  HIGH, "DRV8833 BIN1 (BIN2 to GND): exit roller N20 motor") \
    X(STEP,       D, 6, D6,  HIGH, "A4988 STEP: carousel NEMA17") \
    X(DIR,        D, 7, D7,  HIGH, "A4988 DIR: high turns N->E->S->W") \
    X(STEPPER_EN, B, 4, D12, LOW,  "A4988 ~ENABLE") \
    X(LIGHT,      D, 3, D3,  HIGH, "IRLZ44N gate: 12 V LED ring over the read station (OC2B: PWM-able)")

#endif
