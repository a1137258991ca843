"""Prompt cards: a prompt, its tools and its hooks declared in one Markdown file.

A card is YAML front matter plus a body; the body is the instruction text
(a ``string.Template``: ``$name`` placeholders come from the params passed
at evaluation, ``$$`` is a literal dollar). Paths are relative to the card's
folder::

    ---
    name: pmo                           # required; also the agent tool name
    description: Runs the PMO report.   # used when another card calls this one
    model: gpt-4.1-mini                 # read_card(path).model
    function_tools: [tools.py:add_one]  # "file.py:function" -> Tool.from_function
    tool_hooks: [hooks.py:audit]        # hook(ctx, args, call_next), outermost first
    hosted_tools:                       # kinds of tooltape.tools
      - {kind: web_search, name: search, config: {context_size: low}}
    client_tools:                       # provider-defined, run locally
      - {kind: apply_patch, root: workspace}
      - {kind: local_shell, cwd: ., timeout_s: 30}
    mcp_servers:                        # `command`: a stdio server tooltape starts
      - {name: time, command: python, args: [time_server.py], tools: [get_time]}
      - name: docs                      # `url`: a running streamable HTTP server
        url: http://127.0.0.1:8000/mcp
        headers: {Authorization: "Bearer ${DOCS_TOKEN}"}  # ${NAME}: from the environment
    agents: [ny_manager.md]             # or {card: ..., name: ..., description: ...}
    max_parallel: 4                     # per agent tool
    child_timeout_sec: 120              # per agent call
    ---
    Get the project updates and include the current time.

An agent card whose body does not use ``$message`` gets the caller's
message appended as a "Request" section. MCP servers given by ``command``
run in the card's folder unless ``cwd:`` says otherwise (``python`` is this
interpreter); local shell commands too. A server given by ``url`` is not
started, only connected to; ``command``/``args``/``env``/``cwd`` and
``url``/``headers`` do not mix.

``load_card(path) -> Prompt``; ``read_card(path) -> LoadedCard`` also gives
``.model``, ``.mcp_sections`` and ``with card:`` to run the MCP servers.
Every problem is a ``CardError`` naming the card file, the field and the fix.
"""

from tooltape.cards.errors import CardError
from tooltape.cards.front_matter import (
    AgentEntry,
    CardFrontMatter,
    ClientToolEntry,
    HostedToolEntry,
    McpServerEntry,
)
from tooltape.cards.loader import LoadedCard, load_card, read_card

__all__ = [
    "AgentEntry",
    "CardError",
    "CardFrontMatter",
    "ClientToolEntry",
    "HostedToolEntry",
    "LoadedCard",
    "McpServerEntry",
    "load_card",
    "read_card",
]
