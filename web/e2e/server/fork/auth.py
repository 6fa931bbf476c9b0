"""A custom Agent Server auth handler for the end-to-end test of a wrong
API key: every request needs `x-api-key: right-key`."""

from langgraph_sdk import Auth

auth = Auth()


@auth.authenticate
async def authenticate(headers: dict) -> Auth.types.MinimalUserDict:
    key = headers.get(b"x-api-key") or headers.get("x-api-key")
    if key not in (b"right-key", "right-key"):
        raise Auth.exceptions.HTTPException(status_code=401, detail="Invalid API key: this server wants its own x-api-key")
    return {"identity": "chronograph-e2e"}
