"""The dialog that asks where the forecast's files are (walk 22 #5: the app's forecast took them only from `--assets`
at start-up, so a server without storage.googleapis.com had to quit and start again to give a folder).

Enter checks the answer in a worker, as `forecast --assets` checks it (`flows.forecast.check_assets_for`: the folder
opened, the files a forecast reads chosen from it); a refusal is shown above the input, which keeps the text to
correct; a usable folder dismisses with it. The worker posts `AssetsChecked`; only this screen touches its widgets.
"""

from __future__ import annotations

from textual import on, work
from textual.widgets import Input

from wizard.tui.messages import AssetsChecked
from wizard.tui.problems import error_text
from wizard.tui.screens.prompt import PromptScreen
from wizard.tui.widgets.shown import ShownLabel


class AssetsPromptScreen(PromptScreen):
    """Dismisses with a checked assets location, or None (Escape)."""

    def __init__(self, env: str, question: str, value: str = "") -> None:
        super().__init__(question, value, hint="Enter checks it, then the forecast runs · Escape: back")
        self.env = env
        self.checking = False

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        event.prevent_default()  # the base dialog's handler would dismiss with the text unchecked
        if not self.checking:
            self.checking = True
            self.show_error(None, "Checking…")
            self.check(event.value)

    @work(thread=True, exclusive=True, exit_on_error=False, group="assets", description="Checking the assets folder")
    def check(self, location: str) -> None:
        # Deferred for start-up time: the app loads the Done screen before its first frame.
        from wizard.flows.forecast import SourceWords, check_assets_for, env_at

        # The dialog's words: the place alone (there is no --assets here), and no paragraph on gathering the files,
        # which the dialog says above its input (whole, it pushed the input out of a 24-row dialog): walk 33 #13.
        words = SourceWords(option="", gather=False)
        try:
            checked = check_assets_for(env_at(self.env), location, words)
        except Exception as exc:  # a missing or empty folder, a mirror that does not answer: said, asked again
            self.post_message(AssetsChecked(location, error_text(exc)))
        else:
            self.post_message(AssetsChecked(checked))

    @on(AssetsChecked)
    def _checked(self, message: AssetsChecked) -> None:
        message.stop()
        self.checking = False
        if message.error is None:
            self.dismiss(message.location)
            return
        self.error = message.error
        self.show_error(message.error)

    def show_error(self, error: str | None, note: str | None = None) -> None:
        """The refusal (✗) or a note above the input, replacing the one shown; the input keeps its text."""
        text = f"✗ {error}" if error is not None else note or ""
        shown = self.query("#answer-error")
        if shown:
            shown.first(ShownLabel).update(text)
        else:
            self.query_one("#dialog").mount(ShownLabel(text, id="answer-error", markup=False),
                                            before=self.query_one(Input))
