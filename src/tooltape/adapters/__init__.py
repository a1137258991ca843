"""Provider adapters and the codec seam between tools and a provider's wire."""

from tooltape.adapters.codec import ClientToolCodec, HostedCall, HostedToolCodec
from tooltape.prompt import ProviderAdapter

__all__ = ["ClientToolCodec", "HostedCall", "HostedToolCodec", "ProviderAdapter"]
