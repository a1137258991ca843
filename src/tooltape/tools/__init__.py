"""Provider-agnostic tool kinds: hosted tools (config, output, factory, section) and
client-executed provider tools (``apply_patch``, local ``shell``, ``local_shell``...).

Each kind lives in its own module (``tooltape.tools.web_search`` ...); the
most used names are re-exported here.
"""

from tooltape.tools.apply_patch import (
    ApplyPatchCall,
    ApplyPatchConfig,
    PatchApplied,
    PatchOperation,
    apply_patch_tool,
)
from tooltape.tools.client import ClientExecutedTool
from tooltape.tools.client_section import ClientToolSection
from tooltape.tools.code_interpreter import (
    CodeInterpreterConfig,
    CodeInterpreterResult,
    CodeInterpreterSection,
    code_interpreter_tool,
)
from tooltape.tools.computer import (
    Computer,
    ComputerCall,
    ComputerScreenshot,
    ComputerSection,
    ComputerUsePreviewConfig,
    SafetyCheck,
    computer_tool,
    computer_use_preview_tool,
)
from tooltape.tools.custom import CustomToolConfig, CustomToolSection, Grammar, custom_tool
from tooltape.tools.file_search import (
    FileSearchConfig,
    FileSearchResult,
    FileSearchSection,
    file_search_tool,
)
from tooltape.tools.function_options import FunctionOptions, Namespace, with_options
from tooltape.tools.hosted_section import HostedToolSection
from tooltape.tools.image_generation import (
    ImageGenerationConfig,
    ImageGenerationResult,
    ImageGenerationSection,
    image_generation_tool,
)
from tooltape.tools.local_shell import LocalShellExec, LocalShellExecSection, local_shell_exec_tool
from tooltape.tools.mcp import (
    HostedMcpConfig,
    HostedMcpResult,
    HostedMcpSection,
    HostedMcpTool,
    McpApprovalDecision,
    McpApprovalRequest,
    hosted_mcp_tool,
)
from tooltape.tools.namespace import NamespaceSection, namespace_tools
from tooltape.tools.programmatic_tool_calling import (
    ProgrammaticToolCallingConfig,
    ProgrammaticToolCallingResult,
    ProgrammaticToolCallingSection,
    programmatic_tool_calling_tool,
)
from tooltape.tools.shell import (
    ContainerAuto,
    ContainerReference,
    ShellCall,
    ShellConfig,
    ShellResult,
    ShellSection,
    local_shell_tool,
    shell_tool,
)
from tooltape.tools.tool_search import (
    ClientToolSearchSection,
    ToolSearchConfig,
    ToolSearchResult,
    ToolSearchSection,
    client_tool_search_tool,
    tool_search_tool,
)
from tooltape.tools.web_search import (
    Citation,
    DomainFilter,
    GeoHint,
    WebSearchConfig,
    WebSearchResult,
    WebSearchSection,
    web_search_tool,
)
from tooltape.tools.web_search_preview import (
    WebSearchPreviewConfig,
    WebSearchPreviewResult,
    WebSearchPreviewSection,
    web_search_preview_tool,
)

__all__ = [
    "ApplyPatchCall",
    "ApplyPatchConfig",
    "Citation",
    "ClientExecutedTool",
    "ClientToolSearchSection",
    "ClientToolSection",
    "CodeInterpreterConfig",
    "CodeInterpreterResult",
    "CodeInterpreterSection",
    "Computer",
    "ComputerCall",
    "ComputerScreenshot",
    "ComputerSection",
    "ComputerUsePreviewConfig",
    "ContainerAuto",
    "CustomToolConfig",
    "CustomToolSection",
    "ContainerReference",
    "DomainFilter",
    "FileSearchConfig",
    "FileSearchResult",
    "FileSearchSection",
    "FunctionOptions",
    "GeoHint",
    "Grammar",
    "HostedMcpConfig",
    "HostedMcpResult",
    "HostedMcpSection",
    "HostedMcpTool",
    "HostedToolSection",
    "ImageGenerationConfig",
    "ImageGenerationResult",
    "ImageGenerationSection",
    "LocalShellExec",
    "LocalShellExecSection",
    "McpApprovalDecision",
    "McpApprovalRequest",
    "Namespace",
    "NamespaceSection",
    "PatchApplied",
    "PatchOperation",
    "ProgrammaticToolCallingConfig",
    "ProgrammaticToolCallingResult",
    "ProgrammaticToolCallingSection",
    "SafetyCheck",
    "ShellCall",
    "ShellConfig",
    "ShellResult",
    "ShellSection",
    "ToolSearchConfig",
    "ToolSearchResult",
    "ToolSearchSection",
    "WebSearchConfig",
    "WebSearchPreviewConfig",
    "WebSearchPreviewResult",
    "WebSearchPreviewSection",
    "WebSearchResult",
    "WebSearchSection",
    "apply_patch_tool",
    "client_tool_search_tool",
    "code_interpreter_tool",
    "computer_tool",
    "computer_use_preview_tool",
    "custom_tool",
    "file_search_tool",
    "hosted_mcp_tool",
    "image_generation_tool",
    "local_shell_exec_tool",
    "local_shell_tool",
    "namespace_tools",
    "programmatic_tool_calling_tool",
    "shell_tool",
    "tool_search_tool",
    "web_search_preview_tool",
    "web_search_tool",
    "with_options",
]
