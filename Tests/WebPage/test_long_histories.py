"""Histories of thousands of shares: the page stays light and finds its place again."""
import time

from selenium.webdriver.common.by import By

from servers import Shared
from webpage import BrowserTests, ROW_ELEMENTS


def long_history(count=4000):
    """`count` shares over five years, about two a day, newest first at the root."""
    start = 1609459200
    step = 5 * 365 * 86400 // count
    return [{"id": f"LONG{index:05d}", "name": f"scan {index}.pdf", "size": 1000 + index,
             "createdAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + index * step))} for index in range(count)]


class LongHistoryTests(BrowserTests):
    """A history of thousands of shares: the page keeps only the rows near the screen, and finds its place again."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(), long_history())

    def scroll_to_end(self, rows):
        """Scrolls down until at least `rows` records are loaded (the last row drawn is the oldest loaded)."""
        def loaded():
            last = self.driver.execute_script("return [...document.querySelectorAll('#list li.row')].at(-1)?.dataset.id")
            if last and 4000 - int(last[4:]) >= rows:
                return True
            self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
            return False
        self.page.wait(loaded, seconds=60, message=f"{rows} rows loaded")

    def test_thousands_of_rows_stay_a_few_hundred_in_the_page_and_load_at_the_bottom(self):
        self.page.open()
        self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        self.page.wait(lambda: self.driver.find_element(By.ID, "more").text == "Loading more…" or len(self.page.rows()) > 100,
                       message="more rows come")
        self.scroll_to_end(1500)
        drawn = len(self.page.rows())
        elements = self.driver.execute_script("return document.getElementsByTagName('*').length")
        self.assertLessEqual(drawn, 400, f"{drawn} rows in the page for 1,500 loaded")
        self.assertLessEqual(elements, 400 * ROW_ELEMENTS + 400, f"{elements} elements")
        more = self.driver.find_element(By.ID, "more").rect["y"]
        last = self.page.rows()[-1].rect["y"]
        self.assertGreater(more, last, "loading shows below the rows, where they will come")
        self.driver.execute_script("window.scrollTo(0, 0)")
        self.page.wait(lambda: self.page.ids()[0] == "LONG03999", message="the top rows are drawn again")

    def test_back_brings_a_person_to_the_row_they_left(self):
        self.page.open()
        self.scroll_to_end(400)
        row = lambda: self.page.row("LONG03649")
        self.driver.execute_script("arguments[0].scrollIntoView({ block: 'start' })", row())
        self.driver.execute_script("window.scrollBy(0, -100)")
        self.page.wait(lambda: abs(row().rect["y"] - self.driver.execute_script("return scrollY") - 100) < 2)
        top = row().rect["y"] - self.driver.execute_script("return scrollY")
        self.driver.execute_script("dispatchEvent(new Event('scroll'))")
        self.page.wait(lambda: (self.driver.execute_script("return history.state") or {}).get("anchor"), message="the place is kept")
        self.page.open("?type=doc")
        self.driver.back()
        self.page.wait(lambda: len(self.page.ids()) and self.page.row("LONG03649").is_displayed(), message="row 350 is drawn again")
        self.page.wait_loaded()
        now = self.page.row("LONG03649").rect["y"] - self.driver.execute_script("return scrollY")
        self.assertLess(abs(now - top), 80, f"row 350 at {now} px from the top, left at {top}")

    def test_go_to_a_month_starts_the_list_there(self):
        self.page.open()
        self.page.set_date("jump", "2022-03")
        self.page.wait(lambda: "to=2022-03-31" in self.driver.current_url, message="the list starts at the end of March 2022")
        self.page.wait_loaded()
        first = self.page.text_of(self.page.ids()[0], ".time")
        self.assertTrue(first.startswith("2022-03"), first)
