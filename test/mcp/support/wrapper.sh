# A launcher like `npx` or a project's start script: it starts the MCP server it is given
# ("$@") as a child of its own, so the process the client spawned is not the server.
# WRAPPER_MODE=wait (the default): it waits for the server, then says on stderr how it ended.
# WRAPPER_MODE=leave: it starts the server from a subshell that exits at once, so the server
# is left to init and no parent link leads to it, its stdin and stdout the client's pipes;
# then it becomes a `sleep`, the process the client sees.
# WRAPPER_MODE=untagged: as `wait`, the server started without rxharness's tag in its
# environment (as a launcher that passes on only some variables does): only its parent link
# leads to it.
if [ "$WRAPPER_MODE" = leave ]; then
  # A background command's stdin would be /dev/null: handed on through fd 3 instead.
  exec 3<&0
  ( "$@" <&3 3<&- & )
  exec sleep 600 <&- 3<&-
fi
if [ "$WRAPPER_MODE" = untagged ]; then
  env -u RXHARNESS_MCP_SERVER_ID "$@"
else
  "$@"
fi
echo "wrapper: the server ended with $?" >&2
