"""The parts of examples/nekroagent/adapter.py: NekroAgent's real code driven over the PAS stdio protocol.

Standard library only on our side; every module here runs under NekroAgent's own Python
(scripts/install-nekroagent.sh), never under PAS's. ``scratch``: the folder NekroAgent is
imported in; ``loading``: importing NekroAgent (any release from 2.3.0 to 2.4.0) and putting
in the infrastructure stand-ins of ``standins``; ``observe``: reading what NekroAgent
rendered and replied; ``sandbox``: calling a method the way the model's sandbox code does;
``world``: one scenario's plugins, config and events.
"""
