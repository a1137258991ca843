"""What recorded Responses answers say, read through the codecs.

:mod:`~tooltape.testing.recorded.answers` reads each interaction of a cassette
as a Responses exchange (streamed or not); :mod:`~tooltape.testing.recorded.calls` names
every call a response holds (hosted or run by the client) and the items it cannot read;
:mod:`~tooltape.testing.recorded.inspection` builds what ``tooltape inspect`` shows.
"""
