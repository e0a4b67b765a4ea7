"""The HTTP routes, a router per resource (recorder/api.py create_app includes them); what
they share is recorder/routes/deps.py."""
