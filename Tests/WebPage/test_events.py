"""Events on the page: a share made on another device and a download through its link show without a reload, and
the Events dialog gives the feed's address and the history's webhooks, each with its deliveries and a retry."""
import json
import os
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from servers import Shared
from webpage import SCREENSHOTS, BrowserTests, axe_violations, emulate


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):
        return None


class EventsTests(BrowserTests):
    """A server whose hooks may reach loopback, where nothing answers the test's webhook."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(auth="[hooks]\nallow_private_addresses = true\n"), [])

    def tearDown(self):
        emulate(self.driver, None)

    def add(self, name):
        body = json.dumps({"name": name, "size": 5, "source": "https://drive.example.com/s/abc"})
        status, _, answer = self.shared.request("POST", "/share", body)
        self.assertEqual(status, 201, answer)
        return json.loads(answer)

    def text(self, element_id):
        return self.driver.find_element(By.ID, element_id).text

    def test_a_share_made_elsewhere_and_its_download_show_without_a_reload(self):
        self.page.open()
        self.driver.execute_script("window.sameDocument = true")
        record = self.add("from the phone.pdf")
        self.page.wait(lambda: "from the phone.pdf" in self.page.names(), 15, "the new share, without a reload")
        self.page.wait(lambda: "0 downloads" in self.page.text_of(record["id"], ".link"), message="its link, opening")
        opener = urllib.request.build_opener(NoRedirect)
        try:
            opener.open(self.shared.url + record["link"] + "/file", timeout=30)
        except urllib.error.HTTPError as redirect:
            self.assertEqual(redirect.code, 302)
        self.page.wait(lambda: "1 download" in self.page.text_of(record["id"], ".link"), 15, "the download counted, shown")
        self.assertTrue(self.driver.execute_script("return window.sameDocument === true"), "the page was never reloaded")

    def test_the_events_dialog_gives_the_feed_and_a_webhook_its_secret_deliveries_and_retry(self):
        os.makedirs(SCREENSHOTS, exist_ok=True)
        self.page.open()
        self.page.click(lambda: self.driver.find_element(By.ID, "events-button"), "the Events button")
        self.page.wait(lambda: self.driver.find_element(By.ID, "events").get_attribute("open") is not None)
        feed = self.driver.find_element(By.ID, "feed-url").get_attribute("value")
        self.assertTrue(feed.startswith(self.shared.url + "/feed/") and feed.endswith(".atom"), feed)
        with urllib.request.urlopen(feed, timeout=30) as response:
            self.assertIn(b"<feed xmlns=\"http://www.w3.org/2005/Atom\">", response.read(), "the feed opens with no token")

        self.driver.find_element(By.ID, "hook-url").send_keys("http://127.0.0.1:9/in")
        Select(self.driver.find_element(By.ID, "hook-events")).select_by_value("*")
        self.driver.find_element(By.CSS_SELECTOR, "#hook-form button[type=submit]").click()
        self.page.wait(lambda: self.text("hook-secret").startswith("whsec_"), message="the secret, shown once")
        self.page.wait(lambda: "http://127.0.0.1:9/in" in self.text("hook-list"), message="the webhook listed")
        self.add("report.pdf")
        # Nothing listens on port 9: the first try fails and is logged.
        deliveries = lambda: self.driver.find_element(By.CSS_SELECTOR, "#hook-list .hook-deliveries")

        def tried():
            self.driver.find_element(By.CSS_SELECTOR, "#hook-list .hook-actions button").click()
            if deliveries().is_displayed() and "no answer" in deliveries().text:
                return True
            if deliveries().is_displayed():
                self.driver.find_element(By.CSS_SELECTOR, "#hook-list .hook-actions button").click()
            return False
        self.page.wait(tried, 30, "the failed delivery in the list")
        self.assertIn("share.created", deliveries().text)
        retry = deliveries().find_element(By.CSS_SELECTOR, "button")
        retry.click()
        self.page.wait(lambda: retry.text == "Sent again", message="the retry asked for")
        self.driver.save_screenshot(os.path.join(SCREENSHOTS, "events-desktop.png"))
        self.assertEqual(axe_violations(self.driver), [])

        emulate(self.driver, 390, 844, touch=True)
        self.assertFalse(self.driver.execute_script("return document.documentElement.scrollWidth > innerWidth"), "no sideways scrolling")
        self.driver.save_screenshot(os.path.join(SCREENSHOTS, "events-phone.png"))
        self.assertEqual(axe_violations(self.driver), [])

        stop = [button for button in self.driver.find_elements(By.CSS_SELECTOR, "#hook-list .hook-actions button") if button.text == "Stop"]
        stop[0].click()
        self.page.wait(lambda: "Stopped: by you" in self.text("hook-list"), message="the webhook stopped")
        self.page.wait(lambda: self.text("events-button") == "Events (1 stopped)", message="the header says so")
        self.driver.find_element(By.CSS_SELECTOR, "#events button.close").click()
