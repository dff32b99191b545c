"""REST APIs (flask-smorest): arguments, responses and the OpenAPI document at /openapi.json."""
