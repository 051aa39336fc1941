"""Events on the page: what happens elsewhere (a share made on another device, renamed or moved in another tab, a
download through its link) shows where it belongs without a reload, and the Account screen gives the feed's address
and the history's webhooks, each with its deliveries and a retry."""
import json
import os
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from servers import Shared
from webpage import SCREENSHOTS, BrowserTests, axe_violations, emulate, history


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):
        return None


class EventsTests(BrowserTests):
    """A server whose hooks may reach loopback, where nothing answers the test's webhook."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(auth="[hooks]\nallow_private_addresses = true\n"), history())

    def tearDown(self):
        emulate(self.driver, None)

    def add(self, name, folder="/"):
        body = json.dumps({"name": name, "size": 5, "folder": folder, "source": "https://drive.example.com/s/abc"})
        status, _, answer = self.shared.request("POST", "/share", body)
        self.assertEqual(status, 201, answer)
        return json.loads(answer)

    def change(self, id, **fields):
        status, _, answer = self.shared.request("PATCH", f"/share/{id}", json.dumps(fields))
        self.assertEqual(status, 200, answer)

    def text(self, element_id):
        return self.driver.find_element(By.ID, element_id).text

    def same_page(self):
        return self.driver.execute_script("return window.samePage === true")

    def test_a_share_made_elsewhere_and_its_download_show_without_a_reload(self):
        self.page.open()
        self.driver.execute_script("window.samePage = true")
        record = self.add("from the phone.pdf")
        self.page.wait(lambda: self.page.ids()[0] == record["id"], 15, "the new share at the top, without a reload")
        self.page.wait(lambda: "0 downloads" in self.page.text_of(record["id"], ".link"), message="its link, opening")
        try:
            urllib.request.build_opener(NoRedirect).open(self.shared.url + record["link"] + "/file", timeout=30)
        except urllib.error.HTTPError as redirect:
            self.assertEqual(redirect.code, 302)
        self.page.wait(lambda: "1 download" in self.page.text_of(record["id"], ".link"), 15, "the download counted, shown")
        self.assertTrue(self.same_page(), "the page was never reloaded")

    def test_a_rename_elsewhere_redraws_its_row_and_the_keyboard_stays_on_it(self):
        self.page.open()
        self.driver.execute_script("window.samePage = true")
        first = self.page.ids()[1]
        self.page.row(first).find_element(By.CSS_SELECTOR, ".menu-button").send_keys("")
        self.change(first, name="renamed in another tab.txt")
        self.page.wait(lambda: self.page.text_of(first, ".name") == "renamed in another tab.txt", 15, "the new name in its row")
        self.assertEqual(self.page.active().get_attribute("aria-label"), "Actions for renamed in another tab.txt",
                         "the keyboard is where it was, on the row's menu button")
        self.assertTrue(self.same_page(), "the page was never reloaded")

    def test_a_share_moved_out_of_the_folder_shown_leaves_it_and_one_moved_in_arrives(self):
        self.page.open("?folder=%2Fprojects%2Falpha")
        ids = self.page.ids()
        self.driver.execute_script("window.samePage = true")
        self.change(ids[0], folder="/")
        self.page.wait(lambda: ids[0] not in self.page.ids(), 15, "the share moved away, gone from the folder")
        self.change(ids[0], folder="/projects/alpha")
        self.page.wait(lambda: self.page.ids()[:2] == ids[:2], 15, "back in the folder, in its place")
        self.assertTrue(self.same_page(), "the page was never reloaded")

    def test_the_account_screen_gives_the_feed_and_a_webhook_its_secret_deliveries_and_retry(self):
        os.makedirs(SCREENSHOTS, exist_ok=True)
        self.page.open()
        loaded = "return performance.getEntriesByType('resource').some((entry) => entry.name.endsWith('/personal.js'))"
        self.assertFalse(self.driver.execute_script(loaded), "the Account screen's code waits until it is opened")
        self.page.click(lambda: self.driver.find_element(By.ID, "account-button"), "the Account button")
        self.page.wait(lambda: self.driver.find_element(By.ID, "personal").get_attribute("open") is not None)
        feed = self.driver.find_element(By.ID, "feed-url").get_attribute("value")
        self.assertTrue(feed.startswith(self.shared.url + "/feed/") and feed.endswith(".atom"), feed)
        with urllib.request.urlopen(feed, timeout=30) as response:
            self.assertIn(b'<feed xmlns="http://www.w3.org/2005/Atom">', response.read(), "the feed opens with no token")

        self.driver.find_element(By.ID, "hook-url").send_keys("ftp://example.com/in")
        self.driver.find_element(By.CSS_SELECTOR, "#hook-form button[type=submit]").click()
        self.page.wait(lambda: "url" in self.text("hook-error"), message="a refused address, said")
        field = self.driver.find_element(By.ID, "hook-url")
        field.clear()
        field.send_keys("http://127.0.0.1:9/in")
        Select(self.driver.find_element(By.ID, "hook-events")).select_by_value("*")
        self.driver.find_element(By.CSS_SELECTOR, "#hook-form button[type=submit]").click()
        self.page.wait(lambda: self.text("hook-secret").startswith("whsec_"), message="the secret, shown once")
        self.page.wait(lambda: "http://127.0.0.1:9/in" in self.text("hook-list"), message="the webhook listed")
        self.add("report for the hook.pdf")
        # Nothing listens on port 9: the first try fails and is logged.
        toggle = lambda: self.driver.find_element(By.CSS_SELECTOR, "#hook-list .hook-actions button")
        deliveries = lambda: self.driver.find_element(By.CSS_SELECTOR, "#hook-list .hook-deliveries")

        def tried():
            toggle().click()
            if deliveries().is_displayed() and "no answer" in deliveries().text:
                return True
            if deliveries().is_displayed():
                toggle().click()
            return False
        self.page.wait(tried, 30, "the failed delivery in the list")
        self.assertIn("share.created", deliveries().text)
        retry = deliveries().find_element(By.CSS_SELECTOR, "button")
        retry.click()
        self.page.wait(lambda: retry.text == "Sent again", message="the retry asked for")
        self.driver.save_screenshot(os.path.join(SCREENSHOTS, "account-desktop.png"))
        self.assertEqual(axe_violations(self.driver), [])

        emulate(self.driver, 390, 844, touch=True)
        self.assertFalse(self.driver.execute_script("return document.documentElement.scrollWidth > innerWidth"), "no sideways scrolling")
        self.driver.save_screenshot(os.path.join(SCREENSHOTS, "account-phone.png"))
        self.assertEqual(axe_violations(self.driver), [])

        stop = [button for button in self.driver.find_elements(By.CSS_SELECTOR, "#hook-list .hook-actions button") if button.text == "Stop"]
        stop[0].click()
        self.page.wait(lambda: "Stopped: by you" in self.text("hook-list"), message="the webhook stopped")
        self.page.wait(lambda: self.text("account-badge") == "1", message="the header's Account says so")
        self.assertEqual(self.driver.find_element(By.ID, "account-button").get_attribute("aria-label"), "Account: 1 webhook stopped")
        self.driver.find_element(By.CSS_SELECTOR, "#personal button.close").click()
        self.assertEqual(self.page.active().get_attribute("id"), "account-button", "the keyboard back where it was")

    def test_eight_tabs_open_one_after_another_all_load(self):
        # A browser opens six connections to a server at most; a stream in every tab would leave none for the seventh.
        first = self.driver.current_window_handle
        self.driver.set_page_load_timeout(30)
        try:
            for _ in range(8):
                self.driver.switch_to.new_window("tab")
                self.page.open()
                self.assertTrue(self.page.rows(), "the list, in a new tab")
        finally:
            for handle in self.driver.window_handles:
                if handle != first:
                    self.driver.switch_to.window(handle)
                    self.driver.close()
            self.driver.switch_to.window(first)
            self.driver.set_page_load_timeout(300)
