"""Who sees the page and where: a token asked for and kept, per-user histories and admins, and a sub-path behind nginx."""
import os
import tempfile

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from servers import Nginx, Shared
from webpage import SCREENSHOTS, BrowserTests, emulate, history


class SignInTests(BrowserTests):
    """A server with a token: the page asks for it, sends it, and asks again on a 401."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(tokens=["web-secret"]), history()[:10])

    def test_the_header_names_the_user_and_sign_out_forgets_the_token(self):
        self.driver.get(self.shared.url + "/")
        by_id = self.driver.find_element
        self.page.wait(lambda: by_id(By.ID, "signin").get_attribute("open") is not None, message="the sign-in opens")
        self.page.keys("web-secret", Keys.ENTER)
        self.page.wait(lambda: by_id(By.ID, "who").is_displayed() and by_id(By.ID, "who").text == "token-1",
                       message="the header names the token's user")
        self.page.click(lambda: by_id(By.ID, "sign-out"))
        self.page.wait(lambda: by_id(By.ID, "signin").get_attribute("open") is not None, message="signed out, the page asks again")
        self.assertEqual(self.driver.execute_script("return sessionStorage.length + localStorage.length"), 0, "the token is forgotten")

    def test_escape_on_the_sign_in_leaves_a_way_back(self):
        self.driver.get(self.shared.url + "/")
        by_id = self.driver.find_element
        self.page.wait(lambda: by_id(By.ID, "signin").get_attribute("open") is not None, message="the sign-in opens")
        self.page.keys(Keys.ESCAPE)
        self.page.wait(lambda: by_id(By.ID, "signed-out").is_displayed(), message="the page says why it is empty")
        self.assertEqual(self.page.active().get_attribute("id"), "sign-in-again", "focus is on the way back")
        self.page.keys(Keys.ENTER)
        self.page.wait(lambda: by_id(By.ID, "signin").get_attribute("open") is not None, message="the sign-in opens again")
        self.page.keys("web-secret", Keys.ENTER)
        self.page.wait(lambda: len(self.page.rows()) == 10, message="the list after signing in")
        self.assertFalse(by_id(By.ID, "signed-out").is_displayed())
        self.driver.execute_script("sessionStorage.clear(); localStorage.clear()")

    def test_the_page_asks_for_a_token_and_keeps_it_for_the_tab(self):
        self.driver.get(self.shared.url + "/")
        dialog = self.driver.find_element(By.ID, "signin")
        self.page.wait(lambda: dialog.get_attribute("open") is not None, message="the sign-in opens")
        self.assertEqual(self.page.active().get_attribute("id"), "token")
        self.page.keys("wrong", Keys.ENTER)
        error = self.driver.find_element(By.ID, "signin-error")
        self.page.wait(lambda: error.is_displayed(), message="a wrong token brings it back, saying so")
        self.assertEqual(self.driver.find_element(By.ID, "token").get_attribute("value"), "wrong", "the token stays, to mend")
        self.page.keys("web-secret", Keys.ENTER)
        self.page.wait(lambda: len(self.page.rows()) == 10, message="the list after signing in")
        self.assertEqual(self.driver.execute_script("return localStorage.length"), 0, "not remembered unless asked")
        self.driver.refresh()
        self.page.wait_loaded()
        self.assertEqual(len(self.page.rows()), 10, "the tab keeps the token")


class PerUserTests(BrowserTests):
    """Per-user histories with a quota: each person signs in to their own history; an admin may look at another's."""

    @classmethod
    def setUpClass(cls):
        shared = Shared(users={"alice": "alice-secret", "bob": "bob-secret"},
                        auth='histories = "per-user"\nadmins = ["alice"]\nquota_bytes = 1000000\n')
        records = history()
        cls.open_browser(shared, records[:3], url=None)
        shared.import_records(records[3:8], token="bob-secret")

    def sign_in(self, token):
        self.driver.get(self.shared.url + "/")
        self.driver.execute_script("sessionStorage.clear(); localStorage.clear()")
        self.driver.get(self.shared.url + "/")
        self.page.wait(lambda: self.driver.find_element(By.ID, "signin").get_attribute("open") is not None, message="the sign-in opens")
        self.page.keys(token, Keys.ENTER)
        self.page.wait_loaded()

    def test_each_person_sees_their_own_history_and_their_quota(self):
        self.sign_in("bob-secret")
        self.page.wait(lambda: len(self.page.rows()) == 5, message="bob's five shares")
        storage = self.driver.find_element(By.ID, "storage-text")
        self.page.wait(lambda: storage.text == "37.0 kB of 1.0 MB in 5 shares", message=f"bob's storage and quota: {storage.text}")
        self.assertFalse(self.driver.find_element(By.ID, "user-picker-label").is_displayed(), "bob is no admin")

    def test_an_admin_picks_another_users_history_and_the_url_keeps_it(self):
        self.sign_in("alice-secret")
        self.page.wait(lambda: len(self.page.rows()) == 3, message="alice's own three shares")
        picker = self.driver.find_element(By.ID, "user-picker")
        self.page.wait(lambda: picker.is_displayed() and len(Select(picker).options) == 2, message="the picker offers bob")
        Select(picker).select_by_value("bob")
        self.page.wait(lambda: "user=bob" in self.driver.current_url, message="the view's URL names bob")
        self.page.wait(lambda: len(self.page.rows()) == 5, message="bob's five shares")
        self.assertEqual(self.page.ids()[0], "WEB0007")
        emulate(self.driver, 390, 844, touch=True)
        viewing = self.driver.find_element(By.ID, "viewing")
        self.assertTrue(viewing.is_displayed() and "bob" in viewing.text, "a clear sign of whose history this is")
        self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        self.assertGreaterEqual(viewing.rect["y"] - self.driver.execute_script("return scrollY"), -1, "in sight while scrolling")
        emulate(self.driver, None)
        self.driver.back()
        self.page.wait(lambda: len(self.page.rows()) == 3, message="back to alice's own")


class SubPathTests(BrowserTests):
    """The page behind nginx at /files, from the repository's site file."""

    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="share-sock-")
        socket_path = os.path.join(cls.scratch, "shared.sock")
        shared = Shared(base_path="/files", socket_path=socket_path)
        cls.proxy = Nginx(socket_path)
        # Requests the tests make themselves go through the proxy too.
        shared.url = cls.proxy.url
        cls.open_browser(shared, history())

    def test_everything_works_under_the_sub_path(self):
        self.driver.get(f"http://127.0.0.1:{self.proxy.port}/files")
        self.page.wait_loaded()
        self.assertTrue(self.driver.current_url.endswith("/files/"), self.driver.current_url)
        self.assertEqual(len(self.page.rows()), 100)
        self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        self.page.wait(lambda: len(self.page.rows()) >= 200, message="the next page through the proxy")
        Select(self.driver.find_element(By.ID, "type")).select_by_value("doc")
        self.page.wait(lambda: "/files/?type=doc" in self.driver.current_url)
        self.page.wait_loaded()
        self.assertTrue(all(name.endswith(".docx") for name in self.page.names()))
        self.page.open_menu("WEB0241")
        self.page.choose("Rename")
        self.page.answer("renamed behind nginx.docx")
        self.page.wait(lambda: self.page.text_of("WEB0241", ".name") == "renamed behind nginx.docx")
        match = self.driver.find_element(By.ID, "match").text
        self.assertIn("25 shares", match, "the filter's count")
        os.makedirs(SCREENSHOTS, exist_ok=True)
        self.driver.save_screenshot(os.path.join(SCREENSHOTS, "sub-path.png"))


# Sharing from the page lives in a module of its own, run with these (scripts/test-web lists this module's classes).
