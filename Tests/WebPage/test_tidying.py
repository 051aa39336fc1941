"""Tidying on the page: rename, move, delete with Undo, the trash, many shares at once, and a server that goes away."""
import json
import re

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from servers import Shared
from webpage import BrowserTests, emulate, history


class RootTidyingTests(BrowserTests):
    """One share at a time, on the page at the root of a server with no token."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(), history())

    def setUp(self):
        self.page.open()

    def test_rename_with_the_keyboard_alone(self):
        self.driver.find_element(By.ID, "clear").click()
        self.page.wait_loaded()
        target = self.page.row("WEB0249").find_element(By.CSS_SELECTOR, ".menu-button")
        for _ in range(50):
            if self.page.active() == target:
                break
            self.page.keys(Keys.TAB)
        self.assertEqual(self.page.active(), target, "Tab reaches the row's menu")
        self.page.keys(Keys.ENTER)
        self.assertEqual(self.page.active().text, "Rename", "focus moves into the menu")
        self.page.keys(Keys.ESCAPE)
        self.page.wait(lambda: self.driver.find_element(By.ID, "menu").get_attribute("open") is None)
        self.assertEqual(self.page.active(), target, "Escape closes the menu and focus comes back")
        self.page.keys(Keys.ENTER)
        self.page.keys(Keys.ENTER)
        self.assertEqual(self.page.active().get_attribute("id"), "ask-input", "focus moves into the rename dialog")
        ActionChains(self.driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()
        self.page.keys("renamed by keyboard.bin", Keys.ENTER)
        self.page.wait(lambda: self.page.text_of("WEB0249", ".name") == "renamed by keyboard.bin")
        self.assertEqual(self.page.active().get_attribute("aria-label"), "Actions for renamed by keyboard.bin")

    def test_a_bad_name_is_refused_with_the_servers_words_and_nothing_changes(self):
        self.page.open_menu("WEB0246")
        self.page.choose("Rename")
        self.page.answer("a/b.txt")
        error = self.driver.find_element(By.ID, "ask-error")
        self.page.wait(lambda: error.is_displayed())
        self.assertIn("name", error.text)
        self.page.keys(Keys.ESCAPE)
        self.assertEqual(self.page.text_of("WEB0246", ".name"), "report 246.txt")

    def test_move_offers_the_folders_and_a_new_one_is_confirmed(self):
        self.page.open_menu("WEB0247")
        self.page.choose("Move to a folder")
        options = lambda: self.driver.execute_script("return [...document.querySelectorAll('#ask-options option')].map(o => o.value)")
        # The dialog opens once the folders are in (a request): wait for them as a person would see them.
        self.page.wait(lambda: "/projects" in options(), message="the folders one has are offered")
        self.page.answer("/archive/2021")
        error = self.driver.find_element(By.ID, "ask-error")
        self.page.wait(lambda: error.is_displayed() and "new folder" in error.text, message="a new folder is not made silently")
        self.assertEqual(json.loads(self.shared.request("GET", "/share/WEB0247")[2])["folder"], "/")
        self.driver.find_element(By.ID, "ask-input").send_keys(Keys.ENTER)
        self.page.wait(lambda: self.page.text_of("WEB0247", ".folder") == "/archive/2021")
        status, _, body = self.shared.request("GET", "/share/WEB0247")
        self.assertEqual(json.loads(body)["folder"], "/archive/2021")

    def storage_count(self):
        match = re.search(r"in (\d+) share", self.driver.find_element(By.ID, "storage-text").text)
        return int(match.group(1)) if match else None

    def test_delete_then_undo(self):
        self.page.wait(lambda: self.storage_count() is not None, message="the storage line")
        before = self.storage_count()
        self.page.open_menu("WEB0248")
        self.page.choose("Delete")
        self.page.wait(lambda: "WEB0248" not in self.page.ids())
        self.page.wait(lambda: self.storage_count() == before - 1, message="the storage line counts the deletion")
        undo = self.driver.find_element(By.ID, "toast-undo")
        self.page.wait(lambda: undo.is_displayed())
        undo.click()
        self.page.wait(lambda: "WEB0248" in self.page.ids())
        self.page.wait(lambda: self.storage_count() == before, message="and the undo")

    def test_ctrl_z_undoes_a_deletion_and_focus_returns_to_the_row(self):
        self.page.open()
        name = self.page.text_of("WEB0243", ".name")
        self.page.open_menu("WEB0243")
        self.page.choose("Delete")
        self.page.wait(lambda: "WEB0243" not in self.page.ids())
        self.page.wait(lambda: self.driver.find_element(By.ID, "toast-undo").is_displayed(), message="the toast")
        ActionChains(self.driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        self.page.wait(lambda: "WEB0243" in self.page.ids(), message="Ctrl+Z brings the share back")
        self.page.wait(lambda: self.page.active().get_attribute("aria-label") == f"Actions for {name}",
                       message="and focus comes back to its row")

    def test_the_trash_restores_and_deletes_for_good(self):
        for id in ("WEB0245", "WEB0244"):
            self.assertEqual(self.shared.request("DELETE", f"/share/{id}")[0], 204)
        self.driver.find_element(By.ID, "trash-toggle").click()
        self.page.wait(lambda: "trashed=1" in self.driver.current_url)
        self.page.wait_loaded()
        self.page.open_menu("WEB0245")
        self.page.choose("Restore")
        self.page.wait(lambda: "WEB0245" not in self.page.ids())
        self.page.open_menu("WEB0244")
        self.page.choose("Delete for good")
        self.page.click(lambda: self.driver.find_element(By.ID, "ask-ok"), "the confirmation's button")
        self.page.wait(lambda: "WEB0244" not in self.page.ids())
        self.assertEqual(self.shared.request("GET", "/share/WEB0244?trashed=true")[0], 404)
        self.assertEqual(self.shared.request("GET", "/share/WEB0245")[0], 200)

    def test_a_shares_history_names_no_one_when_nobody_signs_in(self):
        self.page.open_menu("WEB0200")
        actions = [button.text for button in self.driver.find_elements(By.CSS_SELECTOR, "#menu-actions button")]
        self.assertIn("Copy share id", actions, "without share_url the menu names what it copies")
        self.assertNotIn("Copy link", actions)
        self.page.choose("History")
        events = lambda: self.driver.find_element(By.ID, "history-events").text
        self.page.wait(lambda: "Imported" in events())
        self.assertNotIn("by local", events())
        self.page.keys(Keys.ESCAPE)


class TidyTests(BrowserTests):
    """Acting on shares one at a time and many at once, by pointer and by keyboard, on a history of its own."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(), history())

    def setUp(self):
        self.page.open()

    def select(self, id, shift=False):
        check = lambda: self.page.row(id).find_element(By.CSS_SELECTOR, ".select")
        self.driver.execute_script("arguments[0].scrollIntoView({ block: 'center' })", check())
        if shift:
            self.page.wait(lambda: ActionChains(self.driver).key_down(Keys.SHIFT).click(check()).key_up(Keys.SHIFT).perform() or True)
        else:
            self.page.click(check)

    def selection_text(self):
        return self.driver.find_element(By.ID, "selection-count").text

    def test_a_shift_click_selects_a_range_deleted_in_one_request_with_one_undo(self):
        self.select("WEB0239")
        self.select("WEB0236", shift=True)
        self.page.wait(lambda: self.selection_text() == "4 shares selected", message=self.selection_text())
        self.driver.find_element(By.XPATH, '//span[@id="selection-actions"]/button[text()="Delete 4"]').click()
        gone = ["WEB0239", "WEB0238", "WEB0237", "WEB0236"]
        self.page.wait(lambda: not set(gone) & set(self.page.ids()), message="the four rows go")
        self.assertFalse(self.driver.find_element(By.ID, "selection").is_displayed(), "the selection is done")
        self.assertEqual(self.driver.find_element(By.ID, "toast-text").text, "Deleted 4 shares")
        self.driver.find_element(By.ID, "toast-undo").click()
        self.page.wait(lambda: set(gone) <= set(self.page.ids()), message="one Undo brings all four back")

    def test_select_all_matching_acts_on_every_page_of_the_view(self):
        self.page.open("?q=notes")
        matching = json.loads(self.shared.request("GET", "/share/stats?q=notes&by=none")[2])["count"]
        self.select(self.page.ids()[0])
        select_all = self.driver.find_element(By.ID, "select-all")
        self.page.wait(lambda: select_all.text == f"Select all {matching} matching shares", message=select_all.text)
        select_all.click()
        self.page.wait(lambda: self.selection_text() == f"{matching} shares selected")
        self.driver.find_element(By.XPATH, f'//span[@id="selection-actions"]/button[text()="Move {matching}…"]').click()
        self.page.answer("/notes")
        self.page.wait(lambda: "new folder" in self.driver.find_element(By.ID, "ask-error").text, message="a new folder is asked for twice")
        self.driver.find_element(By.ID, "ask-input").send_keys(Keys.ENTER)
        self.page.wait(lambda: self.driver.find_element(By.ID, "toast-text").text == f"Moved {matching} shares", message="moved")
        moved = json.loads(self.shared.request("GET", "/share/stats?folder=%2Fnotes&by=none")[2])["count"]
        self.assertEqual(moved, matching, "every page's shares, not only those loaded")

    def test_the_keyboard_alone_selects_deletes_and_undoes(self):
        check = lambda id: self.page.row(id).find_element(By.CSS_SELECTOR, ".select")
        self.driver.execute_script("arguments[0].focus()", check("WEB0231"))
        self.page.keys(Keys.SPACE)
        self.page.wait(lambda: self.selection_text() == "1 share selected")
        self.page.keys(Keys.TAB, Keys.TAB)
        self.assertEqual(self.page.active(), check("WEB0230"), "Tab goes from a row's checkbox to its menu, then the next row's checkbox")
        self.page.keys(Keys.SPACE)
        self.page.wait(lambda: self.selection_text() == "2 shares selected")
        # The Delete key, from wherever focus is in the list: the selection's actions are far from a row deep in it.
        self.page.keys(Keys.DELETE)
        self.page.wait(lambda: not {"WEB0230", "WEB0231"} & set(self.page.ids()))
        ActionChains(self.driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        self.page.wait(lambda: {"WEB0230", "WEB0231"} <= set(self.page.ids()), message="Ctrl+Z")
        self.page.wait(lambda: self.page.active().get_attribute("aria-label") == f"Actions for {self.page.text_of('WEB0231', '.name')}",
                       message="focus back on the row")

    def menu_by_keyboard(self, id, action):
        """Opens the row's menu from its button with Enter, Tabs to `action` and presses it: the keyboard alone."""
        button = self.page.row(id).find_element(By.CSS_SELECTOR, ".menu-button")
        self.driver.execute_script("arguments[0].focus()", button)
        self.page.keys(Keys.ENTER)
        self.page.wait(lambda: self.driver.find_element(By.ID, "menu").get_attribute("open") is not None)
        for _ in range(8):
            if self.page.active().text == action:
                break
            self.page.keys(Keys.TAB)
        self.assertEqual(self.page.active().text, action)
        self.page.keys(Keys.ENTER)

    def test_every_menu_action_works_from_the_keyboard_alone(self):
        self.menu_by_keyboard("WEB0219", "Move to a folder")
        self.page.wait(lambda: self.page.active().get_attribute("id") == "ask-input", message="the folder field has focus")
        ActionChains(self.driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()
        self.page.keys("/projects", Keys.ENTER)
        self.page.wait(lambda: self.page.text_of("WEB0219", ".folder") == "/projects", message="moved")
        self.menu_by_keyboard("WEB0219", "History")
        self.page.wait(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, "#history-events li")) == 2, message="imported, then moved")
        self.page.keys(Keys.ESCAPE)
        self.menu_by_keyboard("WEB0219", "Delete")
        self.page.wait(lambda: "WEB0219" not in self.page.ids())
        self.driver.execute_script("document.getElementById('trash-toggle').focus()")
        self.page.keys(Keys.ENTER)
        self.page.wait(lambda: "trashed=1" in self.driver.current_url)
        self.page.wait_loaded()
        self.menu_by_keyboard("WEB0219", "Restore")
        self.page.wait(lambda: "WEB0219" not in self.page.ids(), message="restored out of the trash")
        self.assertEqual(self.shared.request("GET", "/share/WEB0219")[0], 200)

    def test_rename_selects_the_name_without_its_extension(self):
        self.page.open_menu("WEB0229")
        self.page.choose("Rename")
        field = self.driver.find_element(By.ID, "ask-input")
        self.page.wait(lambda: field.is_displayed())
        selected = self.driver.execute_script("const f = arguments[0]; return f.value.slice(f.selectionStart, f.selectionEnd)", field)
        self.assertEqual(selected, "photo 229", "typing keeps .bin")
        self.page.keys("final")
        self.page.keys(Keys.ENTER)
        self.page.wait(lambda: self.page.text_of("WEB0229", ".name") == "final.bin")

    def test_a_shares_menu_shows_its_history(self):
        self.page.open_menu("WEB0228")
        self.page.choose("History")
        events = lambda: [item.text for item in self.driver.find_elements(By.CSS_SELECTOR, "#history-events li")]
        self.page.wait(lambda: events(), message="the history dialog")
        self.assertEqual(len(events()), 1)
        self.assertIn("Imported", events()[0])
        self.page.keys(Keys.ESCAPE)
        self.assertEqual(self.page.active().get_attribute("aria-label"), f"Actions for {self.page.text_of('WEB0228', '.name')}")

    def test_the_trash_says_when_and_for_how_long_and_deletes_for_good_only_when_sure(self):
        for id in ("WEB0220", "WEB0221"):
            self.assertEqual(self.shared.request("DELETE", f"/share/{id}")[0], 204)
        self.page.open("?trashed=1")
        self.assertIn("Deleted 20", self.page.text_of("WEB0220", ".trashed"), "when each was deleted")
        self.assertIn("30 days", self.driver.find_element(By.ID, "trash-days").text)
        self.page.open_menu("WEB0221")
        self.page.choose("Delete for good")
        self.page.wait(lambda: self.page.active().get_attribute("id") == "ask-cancel", message="the dialog starts on Cancel")
        self.assertIn("danger", self.driver.find_element(By.ID, "ask-ok").get_attribute("class"))
        self.page.keys(Keys.ENTER)
        self.assertIn("WEB0221", self.page.ids(), "Enter on Cancel deletes nothing")
        self.driver.find_element(By.ID, "empty-trash").click()
        self.page.click(lambda: self.driver.find_element(By.ID, "ask-ok"))
        self.page.wait(lambda: self.page.ids() == [] and "The trash is empty." in self.driver.find_element(By.ID, "status").text)
        self.assertEqual(json.loads(self.shared.request("GET", "/share/stats?trashed=true&by=none")[2])["count"], 0)

    def test_the_undo_toast_stays_while_it_has_focus(self):
        # The page's clock, made by hand: timers run when the test says, so no test waits for ten seconds.
        self.driver.execute_script("""
            window.pending = new Map(); let next = 1;
            window.setTimeout = (run) => { pending.set(next, run); return next++; };
            window.clearTimeout = (id) => pending.delete(id);
            window.runTimers = () => { const due = [...pending.values()]; pending.clear(); due.forEach((run) => run()); };""")
        self.page.open_menu("WEB0215")
        self.page.choose("Delete")
        toast = self.driver.find_element(By.ID, "toast")
        self.page.wait(lambda: toast.is_displayed())
        self.driver.execute_script("document.getElementById('toast-undo').focus(); runTimers()")
        self.assertTrue(toast.is_displayed(), "time passing does not take away what has focus")
        self.driver.execute_script("document.getElementById('q').focus(); runTimers()")
        self.assertFalse(toast.is_displayed(), "once focus leaves, the toast goes in its time")
        self.shared.request("POST", "/share/WEB0215/restore")

    def test_a_toast_about_a_share_deleted_for_good_goes_away(self):
        self.page.open_menu("WEB0210")
        self.page.choose("Delete")
        toast = self.driver.find_element(By.ID, "toast")
        self.page.wait(lambda: toast.is_displayed())
        self.driver.find_element(By.ID, "trash-toggle").click()
        self.page.wait_loaded()
        self.page.open_menu("WEB0210")
        self.page.choose("Delete for good")
        self.page.click(lambda: self.driver.find_element(By.ID, "ask-ok"))
        self.page.wait(lambda: not toast.is_displayed(), message="nothing is left to undo")

    def test_without_the_network_the_list_is_marked_stale_and_comes_back_online(self):
        self.driver.execute_cdp_cmd("Network.enable", {})
        offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
        try:
            Select(self.driver.find_element(By.ID, "type")).select_by_value("pdf")
            message = self.driver.find_element(By.ID, "message")
            self.page.wait(lambda: message.is_displayed(), message="the page says it cannot reach the server")
            self.assertIn("offline", message.text)
            self.assertNotIn("shared", message.text, "words for people, not operators")
            self.assertIn("stale", self.driver.find_element(By.ID, "list").get_attribute("class"))
            self.assertTrue(self.driver.find_element(By.ID, "retry").is_displayed())
        finally:
            self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {**offline, "offline": False})
        self.driver.execute_script("dispatchEvent(new Event('online'))")
        self.page.wait(lambda: not self.driver.find_element(By.ID, "message").is_displayed(), message="back by itself")
        self.page.wait_loaded()
        self.assertTrue(all(name.endswith(".pdf") for name in self.page.names()))
        self.assertNotIn("stale", self.driver.find_element(By.ID, "list").get_attribute("class"))

    def test_the_trash_is_one_place_and_its_button_deletes_only_what_it_names(self):
        for id in ("WEB0005", "WEB0010", "WEB0011", "WEB0012"):
            self.assertEqual(self.shared.request("DELETE", f"/share/{id}")[0], 204)
        try:
            self.page.open("?folder=%2Fprojects%2Falpha")
            self.driver.find_element(By.ID, "trash-toggle").click()
            self.page.wait(lambda: "trashed=1" in self.driver.current_url and "folder" not in self.driver.current_url)
            self.page.wait_loaded()
            self.assertEqual(sorted(self.page.ids()), ["WEB0005", "WEB0010", "WEB0011", "WEB0012"], "the whole trash, whichever folder")
            button = lambda: self.driver.find_element(By.ID, "empty-trash")
            self.page.wait(lambda: button().text == "Empty trash (4 shares)", message=button().text)
            self.page.open("?trashed=1&type=doc")
            self.page.wait(lambda: button().text == "Delete 1 share for good", message="the one document the view shows")
            self.page.open("?trashed=1&q=会议记录")
            self.page.wait(lambda: button().text == "Delete 2 shares for good", message="the two the view shows")
            button().click()
            self.page.click(lambda: self.driver.find_element(By.ID, "ask-ok"))
            self.page.wait(lambda: self.driver.find_element(By.ID, "toast-text").text == "Deleted 2 shares for good")
            left = [record["id"] for record in json.loads(self.shared.request("GET", "/share?trashed=true")[2])]
            self.assertEqual(sorted(left), ["WEB0010", "WEB0012"], "what the view did not show is still in the trash")
        finally:
            for id in ("WEB0010", "WEB0012"):
                self.shared.request("POST", f"/share/{id}/restore")

    def test_select_all_then_delete_says_how_many_and_one_undo_brings_them_back(self):
        self.page.open("?q=photo")
        matching = json.loads(self.shared.request("GET", "/share/stats?q=photo&by=none")[2])["count"]
        self.select(self.page.ids()[0])
        self.page.click(lambda: self.driver.find_element(By.ID, "select-all"))
        self.page.click(lambda: self.driver.find_element(By.XPATH, f'//span[@id="selection-actions"]/button[text()="Delete {matching}"]'))
        self.page.wait(lambda: self.driver.find_element(By.ID, "toast-text").text == f"Deleted {matching} shares: they are in the trash")
        self.assertEqual(json.loads(self.shared.request("GET", "/share/stats?q=photo&by=none")[2])["count"], 0)
        self.driver.find_element(By.ID, "toast-undo").click()
        self.page.wait(lambda: json.loads(self.shared.request("GET", "/share/stats?q=photo&by=none")[2])["count"] == matching,
                       message="one Undo brings every one of them back")

    def test_on_a_phone_undo_stays_on_the_screen_whatever_the_name(self):
        name = "a" * 200 + ".txt"
        self.shared.import_records([{"id": "LONGTOAST", "name": name, "size": 1, "createdAt": "2022-02-01T00:00:00Z"}])
        emulate(self.driver, 390, 844, touch=True)
        try:
            self.page.open()
            self.page.open_menu("LONGTOAST")
            self.page.choose("Delete")
            self.page.wait(lambda: self.driver.find_element(By.ID, "toast").is_displayed())
            for button in ("toast-undo", "toast-close"):
                self.assertTrue(self.page.inside_screen(button), f"{button} is on the screen")
                self.assertGreaterEqual(self.driver.find_element(By.ID, button).size["width"], 44, f"{button} keeps its size")
            toast = self.driver.find_element(By.ID, "toast").rect
            self.assertGreaterEqual(toast["width"], 390 - 20, "the toast spans the phone's screen")
            self.assertLess(self.driver.find_element(By.ID, "toast-text").size["height"], 30, "the name is cut to one line")
        finally:
            emulate(self.driver, None)
            self.shared.request("DELETE", "/share/LONGTOAST?purge=true")

    def test_a_stopped_server_is_said_as_such_and_the_page_comes_back_by_itself(self):
        self.shared.pause()
        try:
            Select(self.driver.find_element(By.ID, "type")).select_by_value("doc")
            message = lambda: self.driver.find_element(By.ID, "message")
            self.page.wait(lambda: message().is_displayed(), message="the page says the server does not answer")
            self.assertIn("server does not answer", message().text)
            self.assertNotIn("offline", message().text, "an online browser is not told to check its connection")
            self.assertIn("Trying again", message().text)
            self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
            self.assertTrue(self.driver.execute_script(
                "const box = document.getElementById('message').getBoundingClientRect(); return box.top >= 0 && box.bottom <= innerHeight"),
                "the notice stays in sight while scrolling")
        finally:
            self.shared.resume()
        self.page.wait(lambda: not message().is_displayed(), seconds=30, message="back by itself once the server answers")
        self.page.wait_loaded()
        self.assertTrue(self.page.names() and all(name.endswith(".docx") for name in self.page.names()))

    def test_an_undo_while_the_server_is_away_is_reported_and_can_be_tried_again(self):
        self.page.open_menu("WEB0209")
        self.page.choose("Delete")
        self.page.wait(lambda: self.driver.find_element(By.ID, "toast").is_displayed())
        self.shared.pause()
        try:
            self.driver.find_element(By.ID, "toast-undo").click()
            message = lambda: self.driver.find_element(By.ID, "message")
            self.page.wait(lambda: message().is_displayed(), message="the failed undo is reported")
            self.assertIn("Undo was not done", message().text)
            self.page.open_menu("WEB0208")
            self.page.choose("Rename")
            self.page.answer("renamed while away.txt")
            error = self.driver.find_element(By.ID, "ask-error")
            self.page.wait(lambda: error.is_displayed(), message="a rename while the server is away says why it was not done")
            self.assertIn("does not answer", error.text)
            self.assertIsNotNone(self.driver.find_element(By.ID, "ask").get_attribute("open"), "the dialog stays, to try again")
            self.page.keys(Keys.ESCAPE)
        finally:
            self.shared.resume()
        self.driver.find_element(By.ID, "retry").click()
        self.page.wait(lambda: json.loads(self.shared.request("GET", "/share/WEB0209")[2]).get("id") == "WEB0209",
                       message="trying again brings the share back")
        self.page.wait(lambda: "WEB0209" in self.page.ids(), message="and its row")
