"""The application around the domain packages: console prompts and printing, argument handling
helpers, the simulated rig and the demos. The command line (``scanner.commands``) and the web
server use these; no domain package (cards, rules, log, tracker, shoe, bridge, pinochle, audit)
imports anything from here or from the command line."""
