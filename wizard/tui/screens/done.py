"""What next: how to activate, the Jupyter kernel, where the logs are — or what failed and why."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static


def summary_text(result: dict) -> str:
    if result.get("cancelled"):
        return ("The install was stopped. Nothing was made current: your previous environment is "
                f"untouched.\n\nLog: {result.get('log')}")
    if not result.get("ok"):
        lines = ["The install did not finish.", "", str(result.get("error") or "")]
        verify = result.get("verify") or {}
        for finding in verify.get("findings") or []:
            lines += ["", f"▶ {finding['title']}", f"  Fix: {finding['fix']}"]
        lines += ["", "Your previous environment is still the current one.", f"Log: {result.get('log')}"]
        return "\n".join(lines)
    verified = result.get("verify") and result["verify"].get("ok")
    node = ((result.get("verify") or {}).get("where") or {}).get("node")
    return "\n".join([
        f"{'Verified' if verified else 'Installed'}: {result.get('recipe')}"
        + (f" (checked on node {node} through srun)" if verified and node else ""),
        f"Environment: {result.get('env')}",
        "",
        "Use it in a shell (old CUDA/cuDNN folders are dropped from LD_LIBRARY_PATH):",
        '    eval "$(gc-wizard activate)"',
        "",
        "Use it in Jupyter: press k to register it as a kernel (or run gc-wizard kernel install).",
        "",
        "Use it with Lmod: press m to write a module file (or run gc-wizard module install),",
        f"    then: module load graphcast/{result.get('recipe')}",
        "",
        f"Log: {result.get('log')}",
    ])


class DoneScreen(Screen[str]):
    """Dismisses with "quit" or "log" (back to the install screen underneath); History opens on top."""

    BINDINGS = [
        Binding("enter", "finish", "Finish", id="next", priority=True, tooltip="Leave gc-wizard"),
        Binding("escape", "back", "Back: log", id="back", tooltip="The install screen and its full log"),
        Binding("k", "kernel", "Jupyter kernel", id="kernel", tooltip="Register this env as a Jupyter kernel"),
        Binding("m", "module", "Module file", id="module", tooltip="Write an Lmod module file: module load graphcast/…"),
        Binding("h", "history", "History", id="history", tooltip="Previous installs and rollback"),
        Binding("s", "report", "Support report", id="report", tooltip="Preview a report to send your admin"),
    ]

    def __init__(self, result: dict) -> None:
        super().__init__()
        self.result = result

    def compose(self) -> ComposeResult:
        yield Static("gc-wizard · Done" if self.result.get("ok") else "gc-wizard · Not done", classes="title")
        with VerticalScroll(id="done-pane"):
            yield Static(summary_text(self.result), id="summary", markup=False)
        yield Footer()

    def action_finish(self) -> None:
        self.dismiss("quit")

    def action_back(self) -> None:
        self.dismiss("log")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("kernel", "module"):
            return bool(self.result.get("ok") and self.result.get("env"))
        return True

    def action_history(self) -> None:
        # On top of this screen, so Escape on History comes back here (not to the install log).
        from wizard.tui.screens.history import HistoryScreen

        self.app.push_screen(HistoryScreen())

    def action_report(self) -> None:
        from wizard.tui.screens.report import ReportScreen

        self.app.push_screen(ReportScreen())

    def action_kernel(self) -> None:
        if self.result.get("ok") and self.result.get("env"):
            self.install_kernel()

    def action_module(self) -> None:
        if self.result.get("ok") and self.result.get("env"):
            self.install_module()

    @work(thread=True, exclusive=True, exit_on_error=False, group="module", description="Writing a module file")
    def install_module(self) -> None:
        from wizard.after.module import module_install

        try:
            written = module_install(self.result["env"])
            self.app.call_from_thread(self.notify, f"Module written. Use it: {written['use']}", timeout=20)
        except Exception as exc:
            self.app.call_from_thread(self.notify, str(exc), severity="error")

    @work(thread=True, exclusive=True, exit_on_error=False, group="kernel", description="Registering kernel")
    def install_kernel(self) -> None:
        from pathlib import Path

        from wizard.after.kernel import kernel_install

        try:
            spec = kernel_install(Path(self.result["env"]))
            text = f"Kernel registered: {spec.get('display_name', spec)}"
            self.app.call_from_thread(self.notify, text)
        except Exception as exc:
            self.app.call_from_thread(self.notify, str(exc), severity="error")
